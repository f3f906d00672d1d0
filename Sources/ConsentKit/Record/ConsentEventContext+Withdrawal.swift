import ConsentKitFormats
import ConsentdAPI
import Foundation

extension ConsentEventContext {
    /// The event that takes a decision back at `date` (``method`` is a withdrawal:
    /// ``ConsentdAPI/ConsentProof/Method/withdrawal`` or ``ConsentdAPI/ConsentProof/Method/underAge``):
    /// no consent, only the proof, naming the notice version and language of the decision it
    /// withdraws (`decision`; this context's defaults, `0` and `en`, without one). consentd
    /// leaves the subject with no decision from it on.
    public func withdrawal(of decision: ConsentState?, at date: Date, eventId: UUID = UUID()) -> ConsentEventRequest {
        let proof = ConsentProof(
            noticeId: noticeId, noticeVersion: String(decision?.noticeVersion ?? 0),
            language: (decision?.consentLanguage ?? "EN").lowercased(), sdkVersion: sdkVersion, platform: platform, method: method)
        return ConsentEventRequest(
            eventId: eventId.uuidString.lowercased(), subjectId: subjectId, collectedAt: ISO8601.format(date),
            consent: ConsentRecord(proof: proof))
    }
}
