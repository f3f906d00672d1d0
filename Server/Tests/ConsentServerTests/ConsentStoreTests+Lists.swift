@testable import ConsentServer
import ConsentdAPI
import Foundation
import Testing

/// Appending a list of events at once (`POST /v1/consents/batch`), on every engine.
extension ConsentStoreTests {
    @Test("a list of events is appended in its order, each decided as if appended alone", arguments: StoreEngine.configured)
    func listIsAppendedInOrder(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let middle = event(collectedAt: 2_000), oldest = event(collectedAt: 1_000, purposes: [1]), other = event(subject: "user-2")
            let newest = event(collectedAt: 3_000, purposes: [4])
            let conflicting = event(UUID(uuidString: middle.eventId)!, collectedAt: 2_000, purposes: [9])
            let answers = try await store.append(appId: app, contentsOf: [middle, oldest, other, newest, middle, conflicting], credential: .secret)
            #expect(answers.count == 6)
            let results = answers.map { try? $0.get().result() }
            #expect(answers.map { (try? $0.get())?.created } == [true, true, true, true, false, nil])
            #expect(results.map { $0?.outcome } == [.current, .history, .current, .current, .current, nil])
            #expect(results.map { $0?.current.eventId } == [middle.eventId, middle.eventId, other.eventId, newest.eventId, middle.eventId, nil])
            #expect(throws: StoreError.eventIdConflict(middle.eventId, erased: false)) { try answers[5].get() }

            let history = try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil).events
            #expect(history.map(\.eventId) == [middle, oldest, newest].map(\.eventId))
            #expect(history.map(\.sequence) == [1, 2, 4])
            #expect(try await store.current(appId: app, subjectId: "user-1")?.eventId == newest.eventId)
            #expect(try await store.verifyChain(appId: app) == ChainVerification(appId: app, eventsChecked: 4, valid: true, firstBrokenLink: nil))
        }
    }

    @Test("a list appended again answers the first answers and stores nothing twice", arguments: StoreEngine.configured)
    func listRetry(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let list = [event(collectedAt: 1_000), event(subject: "user-2"), event(collectedAt: 500)]
            let first = try await store.append(appId: app, contentsOf: list, credential: .secret).map { try $0.get() }
            let again = try await store.append(appId: app, contentsOf: list, credential: .secret).map { try $0.get() }
            #expect(first.map(\.created) == [true, true, true])
            #expect(again.map(\.created) == [false, false, false])
            #expect(try again.map { try $0.result() } == first.map { try $0.result() })
            #expect(try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil).events.count == 2)
            #expect(try await store.verifyChain(appId: app).eventsChecked == 3)
        }
    }

    @Test("lists appended concurrently with single events keep their order and the chain", arguments: StoreEngine.configured)
    func concurrentLists(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let lists = (0..<8).map { list in (0..<25).map { index in event(subject: "user-\(list)", collectedAt: Int64(1_000 + index)) } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for list in lists {
                    group.addTask {
                        let answers = try await store.append(appId: app, contentsOf: list, credential: .secret)
                        #expect(try answers.map { try $0.get().result().outcome } == Array(repeating: .current, count: 25))
                    }
                    group.addTask { _ = try await store.append(appId: app, request: event(subject: "single"), credential: .secret) }
                }
                try await group.waitForAll()
            }
            for (index, list) in lists.enumerated() {
                let history = try await store.events(appId: app, subjectId: "user-\(index)", limit: 100, cursor: nil).events
                #expect(history.map(\.eventId) == list.map(\.eventId))
                // One submission, one commit: its events hold consecutive places in the chain.
                #expect(history.last!.sequence - history.first!.sequence == 24)
            }
            #expect(try await store.verifyChain(appId: app) == ChainVerification(appId: app, eventsChecked: 208, valid: true, firstBrokenLink: nil))
        }
    }

    @Test("erasures are looked up for several subjects at once", arguments: StoreEngine.configured)
    func erasuresOfSeveralSubjects(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            _ = try await store.append(appId: app, contentsOf: [event(subject: "a"), event(subject: "b"), event(subject: "c")], credential: .secret)
            _ = try await store.erase(appId: app, subjectId: "a")
            _ = try await store.erase(appId: app, subjectId: "c")
            _ = try await store.restart(appId: app, subjectId: "c")
            let found = try await store.erasures(appId: app, subjectIds: ["a", "b", "c", "never"])
            #expect(Set(found.keys) == ["a", "c"])
            #expect(found["a"]?.restartedAt == nil)
            #expect(found["c"]?.restartedAt != nil)
            #expect(try await store.erasure(appId: app, subjectId: "a") == found["a"])
            #expect(try await store.erasures(appId: uniqueAppId(), subjectIds: ["a"]).isEmpty)
            #expect(try await store.erasures(appId: app, subjectIds: []).isEmpty)
        }
    }
}
