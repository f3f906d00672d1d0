import Foundation
import TCF

/// Google ads consent on top of the CMP: the Google Consent SDK's capabilities (status,
/// ad-free preference, EEA-or-unknown, ad-tech providers, publisher-managed consent, under-age
/// tag, debug geography, reset) in today's shape, plus the ad request parameters, the
/// Additional Consent string and Consent Mode v2 signals. Everything follows from the
/// manager's one decision; the under-age tag is kept in the manager's store.
///
/// ```swift
/// let google = GoogleAdsConsent(manager: consent)
/// consent.start()
/// _ = try? await google.requestConsentInfoUpdate()   // awaits the refresh start() began
/// if google.shouldShowConsentForm { /* show the notice */ }
/// if google.canRequestAds {
///     let request = Request()                         // Google Mobile Ads SDK 11+ (GADRequest before)
///     let extras = Extras()                           // GADExtras
///     extras.additionalParameters = google.adRequestParameters
///     request.register(extras)                        // without this, npa=1 is never sent
/// }
/// ```
///
/// Debug identifiers and debug geography are the manager's ``ConsentConfiguration/debug``:
/// the region request carries the debug geography only on listed devices or the simulator.
/// The publisher ids are the manager's ``ConsentdEndpoint/publisherIds`` (Google's SDK, too,
/// wanted them fixed for a session).
public final class GoogleAdsConsent: Sendable {
    /// The CMP underneath.
    public let manager: ConsentManager

    /// Google consent over `manager` (started or not).
    public init(manager: ConsentManager) {
        self.manager = manager
    }

    // MARK: Update

    /// Waits for the region decision and the publishers' providers from the refresh the
    /// manager's ``ConsentManager/start()`` began (``ConsentManager/refreshed()``; it starts the
    /// manager if nobody did, and never makes a second request), then returns the status
    /// (``GoogleConsentStatus/of(_:config:gdprApplies:)``).
    ///
    /// - Throws: the ``ConsentKitError`` of the region request when consentd gave no usable
    ///   answer (the status is then judged against the last known one).
    public func requestConsentInfoUpdate() async throws(ConsentKitError) -> GoogleConsentStatus {
        let report = await manager.refreshed()
        for error in report.errors {
            switch error {
            case .server, .regionTimeout: throw error
            default: continue
            }
        }
        return status
    }

    /// ``requestConsentInfoUpdate()`` for callers without async/await; `completion` is called
    /// on an arbitrary thread.
    public func requestConsentInfoUpdate(completion: @escaping @Sendable (Result<GoogleConsentStatus, ConsentKitError>) -> Void) {
        Task {
            do throws(ConsentKitError) {
                completion(.success(try await requestConsentInfoUpdate()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    // MARK: State

    /// The status now.
    public var status: GoogleConsentStatus {
        GoogleConsentStatus.of(manager.consent, config: manager.appConfig, gdprApplies: manager.gdprApplies)
    }

    /// Whether the user prefers the ad-free (paid) version.
    public var prefersAdFree: Bool {
        manager.consent?.prefersAdFree ?? false
    }

    /// Whether the request comes from the EEA (UK, Switzerland) or from where it is unknown:
    /// where consent must be asked for.
    public var isRequestLocationInEEAOrUnknown: Bool {
        manager.gdprApplies != .doesNotApply
    }

    /// Whether to show the consent form now: the manager's one rule
    /// (``ConsentManager/askVerdict()``), which also covers Google's re-consent rule and a
    /// region that is unknown. Call it after ``requestConsentInfoUpdate()``.
    public var shouldShowConsentForm: Bool { manager.shouldAsk }

    /// Whether ads may be requested now (``ConsentManager/canRequestAds``); send them with
    /// ``adRequestParameters``.
    public var canRequestAds: Bool { manager.canRequestAds }

    /// The ad-tech providers of the app's publishers, from consentd's last answer.
    public var adProviders: [AppConfig.AdTechProvider] {
        manager.appConfig?.adTechProviders ?? []
    }

    // MARK: Publisher-managed consent

    /// Records the status the app's own UI collected:
    /// - `.personalized`: "accept all" (every vendor, purpose and ad-tech provider);
    /// - `.nonPersonalized`: "accept all" without purposes 3-6 (profiles and personalization)
    ///   and special features, ad-tech providers consented as Google's SDK did;
    /// - `.unknown`: the decision is forgotten.
    ///
    /// - Throws: what the manager's decisions throw (no vendor list yet, for example), and
    ///   ``ConsentKitError/googleStatusUnreachable(requested:reached:)``, writing nothing, when the
    ///   decision cannot give that status (Google, vendor 755, is not among the publisher's
    ///   vendors, or a publisher serves only non-personalized ads).
    public func setStatus(_ status: GoogleConsentStatus, prefersAdFree: Bool = false) throws(ConsentKitError) {
        if status == .unknown { return manager.clearDecision() }
        let decision = Self.decision(status, prefersAdFree: prefersAdFree, scope: try manager.scope(), at: manager.configuration.now())
        guard let decision else { return }
        try record(decision, as: status)
    }

    /// The decision ``setStatus(_:prefersAdFree:)`` records for `status` under `scope`, made at
    /// `date`; nil for `.unknown`. ConsentKitUI's Google form records the same value, except that
    /// its "Yes" opts into no special feature, which the form offers no choice for (decision
    /// record 0017).
    public static func decision(
        _ status: GoogleConsentStatus, prefersAdFree: Bool, scope: ConsentScope, at date: Date
    ) -> ConsentState? {
        let all = ConsentState.agreeToAll(scope: scope, at: date)
        switch status {
        case .unknown:
            return nil
        case .personalized:
            return all.changing(at: date) { $0.prefersAdFree = prefersAdFree }
        case .nonPersonalized:
            return all.changing(at: date) { changes in
                for purpose in [3, 4, 5, 6] { changes.withdrawPurpose(purpose) }
                for feature in all.specialFeatureOptIns { changes.withdrawSpecialFeature(feature) }
                changes.prefersAdFree = prefersAdFree
            }
        }
    }

    /// Records `decision` when it reads back as `status`; refuses otherwise, writing nothing.
    /// (The status a decision reaches depends on the publishers' configuration: Google, vendor
    /// 755, among their vendors, personalized ads allowed.)
    /// `method` is how consentd's proof records the choice.
    public func record(
        _ decision: ConsentState, as status: GoogleConsentStatus, method: ConsentProof.Method = .programmatic, documentHash: String? = nil
    ) throws(ConsentKitError) {
        let reached = GoogleConsentStatus.of(decision, config: manager.appConfig, gdprApplies: manager.gdprApplies)
        guard reached == status else { throw .googleStatusUnreachable(requested: status.rawValue, reached: reached.rawValue) }
        try manager.record(decision, method: method, documentHash: documentHash)
    }

    // MARK: Under age of consent

    /// Whether the user is tagged as under the age of consent: the consent notice must not be
    /// shown (``checkConsentFormCanLoad()``), ads are non-personalized (``adRequestParameters``
    /// gives `npa=1`), Consent Mode denies the advertising signals, and no consent stands in
    /// the stored decision (``ConsentManager/setTagForUnderAgeOfConsent(_:)``). Kept across
    /// launches. The TFUA tag is in ``adRequestParameters``; an app may also set it on the
    /// Google Mobile Ads request configuration (`tagForUnderAge(ofConsent:)`) from this value:
    /// ConsentKit does not link Google's SDK.
    public var isTaggedForUnderAgeOfConsent: Bool {
        manager.isTaggedForUnderAgeOfConsent
    }

    /// Tags (or untags) the user as under the age of consent
    /// (``ConsentManager/setTagForUnderAgeOfConsent(_:)``: tagging withdraws the consents, untagging
    /// forgets the decision).
    public func setTagForUnderAgeOfConsent(_ tagged: Bool) {
        manager.setTagForUnderAgeOfConsent(tagged)
    }

    /// Refuses to load a consent form, as Google's form did, for a user tagged under the age of
    /// consent and where GDPR does not apply (``isRequestLocationInEEAOrUnknown`` false: consent
    /// is not needed there). ConsentKitUI's `NoticeSession` checks it before it builds Google's
    /// form.
    public func checkConsentFormCanLoad() throws(GoogleConsentError) {
        if isTaggedForUnderAgeOfConsent { throw .taggedUnderAgeOfConsent }
        if !isRequestLocationInEEAOrUnknown { throw .notInEEA }
    }

    /// Forgets the decision, the under-age tag and consentd's kept answer (providers, region),
    /// as Google's `reset()` removed everything it stored.
    public func reset() {
        setTagForUnderAgeOfConsent(false)
        manager.forgetAppConfig()
        manager.clearDecision()
    }

    // MARK: Signals for ad requests

    /// The Google Mobile Ads extras: `["npa": "1"]` when ads must be non-personalized (status
    /// non-personalized, or status unknown where GDPR applies or may apply), else empty. For a
    /// user under the age of consent, Google's TFUA tag as well, in both of its spellings:
    /// `tag_for_under_age_of_consent` (the ad request's extra, as Google's SDKs send it) and
    /// `tfua` (the ad tag URL parameter), each `"1"`, with `npa=1` (seed 001: every ad request
    /// of a tagged user carries TFUA). For a US user opted out of sale, sharing or targeted
    /// advertising (``ConsentManager/restrictsDataProcessing``), `["rdp": "1"]`: Google's
    /// restricted data processing, as `gad_rdp` says too.
    public var adRequestParameters: [String: String] {
        if isTaggedForUnderAgeOfConsent { return ["npa": "1", "tag_for_under_age_of_consent": "1", "tfua": "1"] }
        if manager.restrictsDataProcessing { return ["rdp": "1"] }
        let status = status
        if status == .nonPersonalized || (status == .unknown && isRequestLocationInEEAOrUnknown) {
            return ["npa": "1"]
        }
        return [:]
    }

    /// The Additional Consent string of the decision, as stored in `IABTCF_AddtlConsent`
    /// (``ConsentState/additionalConsentString``): nil without a decision, and nil when its
    /// notice disclosed no ad-tech provider.
    public var additionalConsentString: String? {
        manager.consent?.additionalConsentString
    }

    /// Consent Mode v2 signals, consistent with ``status`` and ``adRequestParameters``: from the
    /// decision (``ConsentModeSignals/from(_:underAgeOfConsent:)``) while the status is known;
    /// all denied while it is unknown where GDPR applies or may; where GDPR does not apply and
    /// the user has not decided, `outsideEEA` (all granted unless the app says otherwise), with
    /// `ad_user_data` and `ad_personalization` denied for a US user opted out of sale, sharing or
    /// targeted advertising (``ConsentManager/restrictsDataProcessing``). For a
    /// user under the age of consent `ad_storage`, `ad_user_data` and `ad_personalization` are
    /// denied in every case.
    public func consentMode(outsideEEA: ConsentModeSignals = .allGranted) -> ConsentModeSignals {
        let underAge = isTaggedForUnderAgeOfConsent
        switch (status, manager.gdprApplies) {
        case (.unknown, .doesNotApply):
            var signals = outsideEEA
            // A US user opted out of sale, sharing or targeted advertising (or by GPC, or a known child).
            if manager.restrictsDataProcessing {
                signals.adUserData = .denied
                signals.adPersonalization = .denied
            }
            if underAge {
                signals.adStorage = .denied
                signals.adUserData = .denied
                signals.adPersonalization = .denied
            }
            return signals
        case (.unknown, _):
            return .allDenied
        default:
            return ConsentModeSignals.from(manager.consent, underAgeOfConsent: underAge)
        }
    }
}

/// A Google consent operation that was refused.
public enum GoogleConsentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user is tagged as under the age of consent: no consent form may be shown.
    case taggedUnderAgeOfConsent
    /// GDPR does not apply where the user is (the region decision says so): the consent form is
    /// not shown, and ads may be requested without it (``GoogleAdsConsent/canRequestAds``).
    case notInEEA

    /// What was refused.
    public var description: String {
        switch self {
        case .taggedUnderAgeOfConsent: "the user is tagged as under the age of consent: the consent form may not be shown, ads are non-personalized"
        case .notInEEA:
            "GDPR does not apply where the user is: Google's consent form is not shown there (request ads without it; "
                + "use a debug geography to test the form)"
        }
    }
}
