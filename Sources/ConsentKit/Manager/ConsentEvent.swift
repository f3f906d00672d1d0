import Foundation
import TCF

/// Something the CMP tells the app about, in order, on ``ConsentManager/events()`` and to
/// listeners.
public enum ConsentEvent: Sendable, Equatable {
    /// `start()` restored the stored decision, or took another CMP's over (``ConsentState/takenOver``),
    /// nil when there is none, and the region decision.
    case ready(ConsentState?, GDPRApplicability)
    /// The decision changed and its keys are written (nil: removed).
    case consentChanged(ConsentState?)
    /// The region decision is made.
    case regionDecided(GDPRApplicability, source: RegionSource)
    /// A vendor list is held (loaded from disk or downloaded).
    case vendorListUpdated(version: Int)
    /// consentd's configuration answer changed: a new one arrived, or it was forgotten (nil).
    case appConfigChanged(AppConfig?)
    /// The user was tagged (true) or untagged as under the age of consent.
    case underAgeOfConsentChanged(Bool)
    /// A sync pass reached consentd: events were acknowledged or the subject's state was read.
    case synced(SyncStatus)
    /// A newer decision from consentd (another device, app or website of the user) was applied
    /// here, after its ``consentChanged(_:)``.
    case remoteConsentApplied(ConsentState)
    /// Something failed; the CMP carried on with what it had.
    case error(ConsentKitError)
}

/// Where a region decision came from.
public enum RegionSource: Sendable, Equatable {
    /// consentd's `/v1/config`.
    case server
    /// The publisher forced it.
    case publisher
    /// The last known answer, because the server did not answer in time or at all.
    case lastKnown
}

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
    /// A decision given with ``ConsentManager/setConsent(tcString:collectedAt:)`` says it was
    /// collected before the day its TC string was last updated: pass the time the user chose.
    case collectedBeforeLastUpdated(collectedAt: Date, lastUpdated: Date)
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
        case .googleStatusUnreachable(let requested, let reached):
            "Google status \(requested) cannot be recorded: the decision would read \(reached) (is vendor 755 among the publisher's vendors? does a publisher serve only non-personalized ads?)"
        }
    }
}
