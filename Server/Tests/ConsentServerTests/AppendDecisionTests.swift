@testable import ConsentServer
import ConsentdAPI
import Foundation
import Testing

/// `ConsentStore.decide`: what a batch does, worked out without a database.
@Suite("Append decision")
struct AppendDecisionTests {
    static let head = ConsentStore.ChainHead(sequence: 41, hash: HashChain.genesis)

    static func event(_ id: String, subject: String = "hash-a", collectedAt: Int64, kind: ConsentRecord.Kind = .tcf) -> ConsentStore.PendingAppend {
        ConsentStore.PendingAppend(
            appId: "app", eventId: id, subjectId: "sub-" + subject, subjectWasGenerated: false, subjectHash: subject,
            collectedAt: collectedAt, receivedAt: 2_000, credential: .secret, keyId: "key", kind: kind.rawValue,
            consentJSON: #"{"tcString":"\#(id)"}"#, fingerprint: "fp-" + id)
    }

    /// The outcome the answer of an appended event names.
    static func outcome(_ decision: ConsentStore.Decision) throws -> AppendOutcome? {
        guard case .appended(let answer) = decision,
              let object = try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any],
              let outcome = object["outcome"] as? String else { return nil }
        return AppendOutcome(rawValue: outcome)
    }

    @Test("events take the next places in the chain, each linked to the one before")
    func chainPlaces() {
        let plan = ConsentStore.decide([Self.event("e1", collectedAt: 10), Self.event("e2", subject: "hash-b", collectedAt: 10)],
                                       head: Self.head, found: .init())
        #expect(plan.rows.map(\.sequence) == [42, 43])
        let first = HashChain.link(previous: HashChain.genesis, sequence: 42, recordHash: HashChain.recordHash(plan.rows[0].record))
        #expect(plan.rows[0].chainHash == first)
        #expect(plan.rows[1].chainHash == HashChain.link(previous: first, sequence: 43, recordHash: HashChain.recordHash(plan.rows[1].record)))
        #expect(plan.head.sequence == 43 && plan.head.hash == plan.rows[1].chainHash)
    }

    @Test("an event collected before its subject's state is history; the later one stays the subject's state")
    func lastWriterWins() throws {
        let plan = ConsentStore.decide([Self.event("e2", collectedAt: 20), Self.event("e1", collectedAt: 10)], head: Self.head, found: .init())
        #expect(try plan.decisions.map(Self.outcome) == [.current, .history])
        #expect(plan.subjects.count == 1)
        #expect(plan.subjects.first?.row.eventId == "e2")
    }

    @Test("a subject changed twice in a batch is written once, with its last state")
    func subjectWrittenOnce() throws {
        let plan = ConsentStore.decide([Self.event("e1", collectedAt: 10), Self.event("e2", collectedAt: 20)], head: Self.head, found: .init())
        #expect(try plan.decisions.map(Self.outcome) == [.current, .current])
        #expect(plan.subjects.map(\.row.eventId) == ["e2"])
        #expect(plan.subjects.first?.row.sequence == 43)
    }

    @Test("an event id stored before, or earlier in the batch, is a retry: no place in the chain, no row")
    func retries() {
        var found = ConsentStore.Found()
        found.retries["e0"] = ("fp-e0", "{}")
        let plan = ConsentStore.decide([Self.event("e0", collectedAt: 5), Self.event("e1", collectedAt: 10), Self.event("e1", collectedAt: 10)],
                                       head: Self.head, found: found)
        #expect(plan.rows.map(\.event.eventId) == ["e1"])
        #expect(plan.head.sequence == 42)
        guard case .retry(let fingerprint, _) = plan.decisions[0], case .retry(let again, let answer) = plan.decisions[2] else {
            Issue.record("expected retries, got \(plan.decisions)")
            return
        }
        #expect(fingerprint == "fp-e0")
        #expect(again == "fp-e1" && answer == plan.rows[0].answer)
        #expect(plan.appended["e1"] == #"{"tcString":"e1"}"#)
    }

    @Test("a stored state collected later than the event keeps the subject; nothing is written for it")
    func storedStateWins() throws {
        var found = ConsentStore.Found()
        found.currents["hash-a"] = ["tcf": ConsentStore.CurrentRow(eventId: "e9", sequence: 7, collectedAt: 99, receivedAt: 99, consentJSON: "{}")]
        let plan = ConsentStore.decide([Self.event("e1", collectedAt: 10)], head: Self.head, found: found)
        #expect(try plan.decisions.map(Self.outcome) == [.history])
        #expect(plan.subjects.isEmpty)
        #expect(plan.rows.count == 1)
    }

    @Test("a US record and a TCF decision of one subject each compete with their own kind only: both stay current, each answer holds both")
    func kindsCompeteApart() throws {
        let plan = ConsentStore.decide([Self.event("e1", collectedAt: 10), Self.event("e2", collectedAt: 30, kind: .us),
                                        Self.event("e3", collectedAt: 20), Self.event("e4", collectedAt: 25, kind: .us)],
                                       head: Self.head, found: .init())
        #expect(try plan.decisions.map(Self.outcome) == [.current, .current, .current, .history])
        #expect(plan.subjects.map(\.row.eventId) == ["e3", "e2"])
        guard case .appended(let answer) = plan.decisions[2] else { Issue.record("e3 was not appended"); return }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any])
        let current = try #require(object["current"] as? [String: Any])
        #expect(current["eventId"] as? String == "e3")
        #expect((current["otherKinds"] as? [[String: Any]])?.map { $0["eventId"] as? String } == ["e2"])
    }
}

@Suite("Demo pages")
struct DemoPagesTests {
    @Test("consentd refuses to start without a demo page, naming every missing file")
    func missingPages() throws {
        let page = ServedDocument(body: Data("<html>".utf8), contentType: "text/html; charset=utf-8")
        let assets = NoticeAssets(notice: [:], noticeInline: try InlinedPage(page: Data(), files: [:]), cmp: [:], demo: ["site.html": page, "frame.js": page])
        #expect {
            try DemoPages(assets)
        } throws: { error in
            "\(error.localizedDescription)".contains("playground.html, frame.html")
        }
    }

    @Test("the bundled files have every demo page")
    func bundledPages() throws {
        let pages = try DemoPages(try NoticeAssets.load())
        #expect(pages.frame.map(\.name) == ["frame.html", "frame.js"])
    }
}
