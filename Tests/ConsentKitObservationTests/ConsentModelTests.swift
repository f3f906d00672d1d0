import Foundation
import Observation
import Testing
import TCF
import ConsentKit
import ConsentKitObservation

/// A vendor list small enough to read: GVL v3 #45's shape, two purposes, one vendor.
private let smallVendorList = try! VendorList(jsonData: Data("""
    {"gvlSpecificationVersion": 3, "vendorListVersion": 45, "tcfPolicyVersion": 5, "lastUpdated": "2024-03-21T16:00:00Z",
     "purposes": {"1": {"id": 1, "name": "Store and/or access information on a device", "description": ""},
                  "2": {"id": 2, "name": "Use limited data to select advertising", "description": ""}},
     "specialPurposes": {}, "features": {}, "specialFeatures": {}, "stacks": {}, "dataCategories": {},
     "vendors": {"755": {"id": 755, "name": "Google Advertising Products", "purposes": [1, 2], "legIntPurposes": [],
                         "flexiblePurposes": [], "specialPurposes": [], "features": [], "specialFeatures": [],
                         "usesCookies": true, "cookieMaxAgeSeconds": 34190000, "cookieRefresh": false, "usesNonCookieAccess": true}}}
    """.utf8))

/// The vendor list, held locally; no network.
private struct HeldVendorList: VendorListLoading {
    func localVendorList() async -> VendorList? { smallVendorList }
    func refreshVendorList() async throws -> VendorList? { smallVendorList }
}

// Swift Testing takes @available on test functions, not on suites: each test carries it.
@Suite("Observable model")
@MainActor
struct ConsentModelTests {
    /// Waits until `condition` holds (at most two seconds).
    func eventually(_ condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test("the model follows the manager: region, vendor list, decision, and whether to ask")
    func followsTheManager() async throws {
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: nil, cmp: CMPIdentity(cmpId: 300, cmpVersion: 7), store: InMemoryKeyValueStore(), gdprOverride: .applies,
            vendorLists: HeldVendorList()))
        let model = ConsentModel(manager: manager)
        #expect(model.gdprApplies == .undetermined)
        await manager.refreshed()
        await eventually { model.vendorListVersion == 45 && model.gdprApplies == .applies }
        #expect(model.gdprApplies == .applies)
        #expect(model.shouldAsk)
        #expect(model.verdict == .noDecision)

        let changed = Locked(false)
        withObservationTracking { _ = model.consent } onChange: { changed.withLock { $0 = true } }
        try manager.agreeToAll()
        await eventually { model.consent != nil }
        #expect(changed.withLock { $0 })
        #expect(model.consent == manager.consent)
        #expect(!model.shouldAsk)
        #expect(model.canRequestAds)

        // A change that is not a decision reaches the model too.
        manager.setTagForUnderAgeOfConsent(true)
        await eventually { model.verdict == .underAgeOfConsent }
        #expect(model.verdict == .underAgeOfConsent)
    }
}
