import ConsentKitFormats
import ConsentdAPI
import Foundation

/// A US choice as a consent event of kind `us` (decision record 0035), made here for the app's
/// sync and consentd's web CMP alike, and read back from one.
extension ConsentEventContext {
    /// The consent event of `choice`: kind `us`, the choice's values (``ConsentdAPI/USChoiceRecord``),
    /// the GPP string of the sections in force (``gppString``), and the proof (the choice's notice
    /// version and language, this context's method, notice, platform and document hash), at the
    /// choice's time. No TCF field: a US choice is not a TCF decision, and consentd keeps it
    /// beside one rather than in its place.
    public func event(for choice: USPrivacyChoice, eventId: UUID = UUID()) -> ConsentEventRequest {
        let proof = ConsentProof(
            noticeId: noticeId, noticeVersion: String(choice.noticeVersion), language: choice.language, sdkVersion: sdkVersion,
            platform: platform, method: method, documentHash: documentHash)
        let values = USChoiceRecord(
            saleOptOut: choice.saleOptOut, sharingOptOut: choice.sharingOptOut,
            targetedAdvertisingOptOut: choice.targetedAdvertisingOptOut, sensitiveDataLimited: choice.sensitiveDataLimited)
        return ConsentEventRequest(
            eventId: eventId.uuidString.lowercased(), subjectId: subjectId, collectedAt: ISO8601.format(choice.decided),
            consent: ConsentRecord(gppString: gppString, kind: .us, usChoice: values, proof: proof))
    }
}

extension USPrivacyChoice {
    /// The choice a consent record of kind `us` holds, made at `collectedAt`; nil for a record of
    /// another kind, a withdrawal, or one without ``ConsentdAPI/ConsentRecord/usChoice``. The
    /// notice version is the proof's (0 when it is not a number).
    public init?(record: ConsentRecord, collectedAt: Date) {
        guard record.recordKind == .us, !record.proof.method.isWithdrawal, let values = record.usChoice else { return nil }
        self.init(
            saleOptOut: values.saleOptOut, sharingOptOut: values.sharingOptOut, targetedAdvertisingOptOut: values.targetedAdvertisingOptOut,
            sensitiveDataLimited: values.sensitiveDataLimited, noticeVersion: Int(record.proof.noticeVersion) ?? 0,
            language: record.proof.language, decided: collectedAt)
    }
}
