import Foundation
import TCF

/// A failure the CMP reports, saying what and where.
public enum ConsentKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// consentd did not give a usable answer.
    case server(ConsentdError)
    /// The region question timed out after this many seconds.
    case regionTimeout(seconds: Double)
    /// A vendor list could not be loaded or refreshed.
    case vendorList(String)
    /// The operation needs a vendor list and none is held yet.
    case noVendorList
    /// consentd has not yet said which vendors the publisher uses (and the configuration does
    /// not list them), so a notice cannot say which vendors it covers.
    case publisherVendorsUnknown
    /// A change was refused.
    case change(ConsentChangeError)
    /// A TC string given to the CMP does not decode.
    case invalidTCString(TCFDecodingError)
    /// The decision does not fit the string formats.
    case encoding(TCFEncodingError)
    /// The stored decision could not be read back; the CMP starts without one.
    case storedDecisionUnreadable(String)
    /// The Google status asked for cannot follow from a decision for what the notice covers.
    case googleStatusUnreachable(requested: String, reached: String)
    /// Another CMP's consent string found at the first start (`key`) is not a valid string of
    /// that key's version, for `reason`: it was not taken over, and it was removed.
    case foreignConsentRejected(key: String, reason: String)
    /// A decision given with ``ConsentManager/setConsent(tcString:additionalConsent:collectedAt:)`` says it was
    /// collected before the day its TC string was last updated: pass the time the user chose.
    case collectedBeforeLastUpdated(collectedAt: Date, lastUpdated: Date)
    /// The Additional Consent string given with ``ConsentManager/setConsent(tcString:additionalConsent:collectedAt:)``
    /// is not a version 2 string (`2~consented ids~dv.disclosed ids`).
    case invalidAdditionalConsent(String)
    /// The sync with consentd failed; the events concerned are kept (``SyncError``).
    case sync(SyncError)

    /// What went wrong.
    public var description: String {
        switch self {
        case .server(let error): "consentd: \(error)"
        case .regionTimeout(let seconds): "the region decision timed out after \(seconds) s; using the last known answer"
        case .vendorList(let message): "vendor list: \(message)"
        case .noVendorList: "no vendor list is held yet: wait for .vendorListUpdated or supply a bundled snapshot"
        case .publisherVendorsUnknown:
            "the publisher's vendors are not known yet: wait for .regionDecided from consentd or list them in PublisherSettings.vendorIds"
        case .change(let error): "change refused: \(error)"
        case .invalidTCString(let error): "TC string: \(error)"
        case .encoding(let error): "the decision cannot be encoded: \(error)"
        case .storedDecisionUnreadable(let message): "stored decision unreadable: \(message)"
        case .foreignConsentRejected(let key, let reason): "another CMP's \(key) is not taken over: \(reason)"
        case .collectedBeforeLastUpdated(let collectedAt, let lastUpdated):
            "collected at \(collectedAt), before the day of the TC string's LastUpdated (\(lastUpdated))"
        case .sync(let error): "sync: \(error)"
        case .invalidAdditionalConsent(let text): "Additional Consent string \(text) is not 2~consented ids~dv.disclosed ids (such as 2~1.35~dv.9)"
        case .googleStatusUnreachable(let requested, let reached):
            "Google status \(requested) cannot be recorded: the decision would read \(reached) (is vendor 755 among the publisher's vendors? does a publisher serve only non-personalized ads?)"
        }
    }
}
