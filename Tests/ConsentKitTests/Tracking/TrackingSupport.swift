import Foundation
import TCF
import Testing
@testable import ConsentKit

/// Vendors of GVL v3 #45 the test publisher uses.
let trackingTestVendors: IDSet = [8, 755, 793]

/// A started manager over `store` that holds the real vendor list (unless `holdingList` is
/// false) and whose region is `gdpr` (nil: undetermined).
func makeTrackingManager(
    store: any KeyValueStore = InMemoryKeyValueStore(), gdpr: GDPRApplicability? = .applies, holdingList: Bool = true,
    askRules: AskRules = AskRules()
) -> ConsentManager {
    let manager = makeManager(
        store: store, consentd: nil, override: gdpr, vendorLists: nil, publisher: PublisherSettings(vendorIds: trackingTestVendors), askRules: askRules)
    manager.start(refreshing: false)
    if holdingList { manager.hold(Fixtures.vendorList) }
    return manager
}

/// A notice that does what it is told and notes what it saw.
final class ScriptedNotice: NoticePresenting {
    /// What the "user" does.
    enum Action: Sendable {
        case agreeToAll
        case disagreeToAll
        /// Consents to purpose 1 only.
        case consentToPurposeOne
        /// Closes the notice without a choice, allowed or not.
        case dismiss
        /// Says `.decided` without recording anything.
        case claimDecidedWithoutRecording
    }

    /// One showing of the notice.
    struct Presentation: Sendable, Equatable {
        var request: NoticeRequest
        /// The ATT prompts shown before the notice appeared.
        var promptsBefore: Int
        /// The ATT status when the notice appeared.
        var trackingStatus: TrackingAuthorizationStatus
    }

    private let manager: ConsentManager
    private let tracking: SimulatedTrackingAuthorization
    private let action: Action
    private let seen = Locked<[Presentation]>([])

    init(manager: ConsentManager, tracking: SimulatedTrackingAuthorization, action: Action) {
        self.manager = manager
        self.tracking = tracking
        self.action = action
    }

    /// Every showing, in order.
    var presentations: [Presentation] { seen.withLock { $0 } }

    @MainActor func present(_ request: NoticeRequest) async -> NoticeOutcome {
        seen.withLock { $0.append(Presentation(request: request, promptsBefore: tracking.promptCount, trackingStatus: tracking.status)) }
        do {
            switch action {
            case .agreeToAll:
                try manager.agreeToAll()
            case .disagreeToAll:
                try manager.disagreeToAll()
            case .consentToPurposeOne:
                try manager.update { try $0.setPurpose(1, consent: true) }
            case .dismiss:
                return .dismissed
            case .claimDecidedWithoutRecording:
                return .decided
            }
        } catch {
            Issue.record("the test manager refused a decision: \(error)")
            return .dismissed
        }
        return .decided
    }
}

/// Device identifiers that count how often the advertising identifier is read.
final class CountingDeviceIdentifiers: DeviceIdentifierSource {
    private let reads = Locked(0)
    let advertising: UUID
    let vendor: UUID

    init(advertising: UUID, vendor: UUID) {
        self.advertising = advertising
        self.vendor = vendor
    }

    var advertisingReads: Int { reads.withLock { $0 } }

    var advertisingIdentifier: UUID? {
        get async {
            reads.withLock { $0 += 1 }
            return advertising
        }
    }

    var vendorIdentifier: UUID? {
        get async { vendor }
    }
}
