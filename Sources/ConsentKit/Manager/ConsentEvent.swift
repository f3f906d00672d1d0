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
    /// here, after its ``consentChanged(_:)``; nil when it was a withdrawal (the decision was
    /// taken back there, or the user tagged under the age of consent), so none stands here either.
    case remoteConsentApplied(ConsentState?)
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
