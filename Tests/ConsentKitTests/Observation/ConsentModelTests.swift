import Foundation
import Observation
import Testing
@testable import ConsentKit

@Suite("Observable model")
@MainActor
struct ConsentModelTests {
    /// Waits until `condition` holds (at most two seconds).
    func eventually(_ condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
    }

    @Test("the model follows the manager: region, vendor list, decision, and whether to ask")
    func followsTheManager() async throws {
        let manager = makeManager(consentd: nil, override: .applies)
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
    }
}
