import ConsentKit
import ConsentKitUI
import ConsentRequests
import ConsentdAPI
import Foundation
import TCF

/// A choice made on a notice, as the SDK records it: its TC string, Additional Consent string and
/// Google status, and the consent event that carries them to the database. The demo and the web
/// CMP record through it, so a choice made on the web is stored exactly as an app's.
struct RecordedChoice: Sendable {
    /// The TC string, as stored.
    var tcString: String
    /// The TC string, decoded by ConsentKit's decoder.
    var decoded: TCString
    /// The Additional Consent string, when ad-tech providers were disclosed.
    var addtlConsent: String?
    /// What Google's ads SDKs read from it.
    var google: GoogleConsentStatus
    /// Whether the user prefers the paid ad-free version.
    var prefersAdFree: Bool
    /// The consent event.
    var event: ConsentEventRequest

    /// A decision made on the notice: its string is encoded by `cmp`.
    init(decision: ConsentState, cmp: CMPIdentity, subjectId: String?, at date: Date, proof: ConsentProof) throws {
        let encoded = try decision.tcString(cmp: cmp).encoded()
        let ac = decision.disclosedAdTechProviders.isEmpty
            ? nil : AdditionalConsent.string(consented: decision.adTechProviderConsents, disclosed: decision.disclosedAdTechProviders)
        try self.init(tcString: encoded, decoded: try TCString(decoding: encoded), addtlConsent: ac, decision: decision,
                      subjectId: subjectId, at: date, proof: proof)
    }

    /// A decision received as a TC string made elsewhere (the app, for its web views): the
    /// string is kept exactly as given.
    init(received tcString: String, decoded: TCString, addtlConsent: String?, subjectId: String?, at date: Date, proof: ConsentProof) throws {
        try self.init(tcString: tcString, decoded: decoded, addtlConsent: addtlConsent, decision: ConsentState(tcString: decoded, additionalConsent: addtlConsent, collectedAt: date),
                      subjectId: subjectId, at: date, proof: proof)
    }

    private init(tcString: String, decoded: TCString, addtlConsent: String?, decision: ConsentState, subjectId: String?, at date: Date,
                 proof: ConsentProof) throws {
        let google = GoogleConsentStatus.of(decision, config: nil, gdprApplies: .applies)
        self.tcString = tcString
        self.decoded = decoded
        self.addtlConsent = addtlConsent
        self.google = google
        self.prefersAdFree = decision.prefersAdFree
        self.event = ConsentEventRequest(
            subjectId: subjectId, collectedAt: date,
            consent: ConsentRecord(
                tcString: tcString,
                googleAdsChoice: decision.prefersAdFree ? .adFree : google == .personalized ? .personalized : .nonPersonalized,
                additionalConsent: addtlConsent, proof: proof))
    }

    /// The proof's method for a notice's action.
    static func method(_ action: NoticeResult.Action) -> ConsentProof.Method {
        switch action {
        case .acceptAll: .acceptAll
        case .rejectAll: .rejectAll
        default: .custom
        }
    }

    /// The event, checked as `POST /v1/consents` checks a body; a field it refuses is named as
    /// `fieldPrefix` + the field (the subject id as itself).
    func checkedEvent(fieldPrefix: String) throws -> CheckedConsentEvent {
        do {
            return try CheckedConsentEvent.decode(try JSONEncoder().encode(event))
        } catch let error as InvalidField {
            throw APIError(.badRequest, error.code.rawValue, error.message, field: error.field.map { $0 == "subjectId" ? "subjectId" : fieldPrefix + $0 })
        }
    }
}
