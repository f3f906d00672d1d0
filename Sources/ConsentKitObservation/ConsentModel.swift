import ConsentKit
import Observation

/// The CMP for SwiftUI (Observation): the decision, the region decision and whether to ask,
/// kept up to date from a `ConsentManager`'s events on the main actor.
///
/// Observation is iOS 17, macOS 14, tvOS 17, watchOS 10, so the model lives in its own module,
/// `ConsentKitObservation`, apart from `ConsentKit`: link it when the app's minimum is iOS 17 or
/// macOS 14. An app that also runs on older systems follows the manager's `events()` instead
/// (a binary that links Observation does not start on iOS 16: "Library not loaded").
///
/// ```swift
/// @State var consent = ConsentModel(manager: manager)
/// …
/// .sheet(isPresented: .constant(consent.shouldAsk)) { NoticeView() }
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ConsentModel {
    /// The user's decision; nil when there is none.
    public private(set) var consent: ConsentState?
    /// Whether GDPR applies.
    public private(set) var gdprApplies: GDPRApplicability
    /// The ask rules' verdict (see ``AskRules``).
    public private(set) var verdict: AskRules.Verdict
    /// Whether the user should be asked now.
    public var shouldAsk: Bool { verdict.shouldAsk }
    /// Whether ads may be requested now (``ConsentManager/canRequestAds``).
    public private(set) var canRequestAds: Bool
    /// The vendor list version held, if any.
    public private(set) var vendorListVersion: Int?
    /// The last error the CMP reported, if any.
    public private(set) var lastError: ConsentKitError?

    /// The manager the model follows.
    @ObservationIgnored public let manager: ConsentManager
    @ObservationIgnored private let listener = Locked<Task<Void, Never>?>(nil)

    /// A model over `manager`; it follows the manager's events from now on.
    public init(manager: ConsentManager) {
        self.manager = manager
        consent = manager.consent
        gdprApplies = manager.gdprApplies
        verdict = manager.askVerdict()
        canRequestAds = manager.canRequestAds
        vendorListVersion = manager.vendorList?.vendorListVersion
        let events = manager.events()
        listener.withLock { task in
            task = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.apply(event)
                }
            }
        }
    }

    deinit {
        listener.withLock { $0?.cancel() }
    }

    private func apply(_ event: ConsentEvent) {
        if case .error(let error) = event { lastError = error }
        consent = manager.consent
        gdprApplies = manager.gdprApplies
        vendorListVersion = manager.vendorList?.vendorListVersion
        verdict = manager.askVerdict()
        canRequestAds = manager.canRequestAds
    }
}
