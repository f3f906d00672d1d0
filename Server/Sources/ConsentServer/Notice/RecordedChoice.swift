import ConsentKit
import ConsentRequests
import ConsentdAPI
import Foundation
import GPP
import TCF

/// A choice made on a notice, with its consent event made as the SDK makes an app's
/// (``ConsentKit/ConsentEventContext``): its TC string, Additional Consent string and Google
/// status for the page, and the event for the database. The demo and the web CMP record through it.
struct RecordedChoice: Sendable {
    /// The TC string, as stored.
    var tcString: String
    /// The TC string, decoded by ConsentKit's decoder.
    var decoded: TCString
    /// What Google's ads SDKs read from it.
    var google: GoogleConsentStatus
    /// Whether the user prefers the paid ad-free version.
    var prefersAdFree: Bool
    /// The consent event.
    var event: ConsentEventRequest

    /// The Additional Consent string, when ad-tech providers were disclosed.
    var addtlConsent: String? { event.consent.additionalConsent }

    /// `decision` in `context`: its strings encoded by the context's CMP, or `received` as given;
    /// where GDPR applies, the GPP string of its tcfeuv2 section too, as the SDK sends it
    /// (`IABKeyValues.gppString(for:gdprApplies:cmp:us:)`; a received TC string as its section).
    init(decision: ConsentState, context: ConsentEventContext, received: ConsentEventContext.ReceivedStrings? = nil) throws {
        var context = context
        if context.gppString == nil, context.gdprApplies == .applies {
            let gpp = if let received { GPPString(sections: [.unknown(id: GPPSectionID.tcfeuv2.rawValue, text: received.tcString)]) }
                else { IABKeyValues.gppString(for: decision, gdprApplies: .applies, cmp: context.cmp, us: []) }
            context.gppString = try gpp.encoded()
        }
        event = try context.event(for: decision, received: received)
        tcString = event.consent.tcString ?? ""
        decoded = try TCString(decoding: tcString)
        google = GoogleConsentStatus.of(decision, config: context.appConfig, gdprApplies: context.gdprApplies)
        prefersAdFree = decision.prefersAdFree
    }

    /// The event, checked as `POST /v1/consents` checks a body (``ConsentdAPI/ConsentEventRequest/checked(fieldPrefix:)``).
    func checkedEvent(fieldPrefix: String) throws -> CheckedConsentEvent {
        try event.checked(fieldPrefix: fieldPrefix)
    }
}

extension ConsentEventRequest {
    /// The event, checked as `POST /v1/consents` checks a body; a field it refuses is named as
    /// `fieldPrefix` + the field (the subject id as itself).
    func checked(fieldPrefix: String) throws -> CheckedConsentEvent {
        do {
            return try CheckedConsentEvent.decode(try JSONEncoder().encode(self))
        } catch let error as InvalidField {
            throw APIError(.badRequest, error.code.rawValue, error.message, field: error.field.map { $0 == "subjectId" ? "subjectId" : fieldPrefix + $0 })
        }
    }
}
