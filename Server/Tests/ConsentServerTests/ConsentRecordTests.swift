@testable import ConsentServer
import ConsentRequests
import ConsentdAPI
import Foundation
import SQLKit
import Testing

/// The consent record iubenda's Consent Database keeps (seed 002; issue 26 §6): subject
/// information stored as subject ids are (keyed hash and encrypted), free-form preferences,
/// legal notices with their versions, and the hash of the notice document shown.
@Suite("iubenda's consent record")
struct ConsentRecordTests {
    static let information = SubjectInformation(email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", verified: true)
    static let documentHash = ConsentProof.hash(ofDocument: Array(#"{"protocol":1,"texts":"the notice"}"#.utf8))

    /// A checked event with every field iubenda's record adds.
    static func fullEvent(_ id: UUID = UUID(), subject: SubjectInformation? = information, collectedAt: Int64 = 1_763_000_000_000) -> CheckedConsentEvent {
        CheckedConsentEvent(
            eventId: id.uuidString.lowercased(), subjectId: "user-1", collectedAtMilliseconds: collectedAt,
            consent: ConsentRecord(
                purposeConsents: [1, 2],
                preferences: ["newsletter": .bool(true), "frequency": .string("weekly"), "level": .integer(3)],
                legalNotices: [LegalNotice(identifier: "privacy_policy", version: "7"), LegalNotice(identifier: "terms", version: "2026-03")],
                proof: ConsentProof(noticeId: "main", noticeVersion: "4", language: "en", sdkVersion: "1.0", platform: .ios, method: .acceptAll,
                                    documentHash: documentHash)),
            subject: subject)
    }

    @Test("002-9: subject information is stored only as a keyed hash and encrypted, never in clear", arguments: StoreEngine.configured)
    func subjectInformationIsNeverStoredInClear(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let request = Self.fullEvent()
            _ = try await store.append(appId: app, request: request, credential: .secret)
            let row = try #require(try await database.read { db in
                try await db.raw("""
                    SELECT record, subject_information, response FROM consent_events WHERE event_id = \(bind: request.eventId)
                    """).first()
            })
            let record = try row.decode(column: "record", as: String.self)
            let sealed = try #require(try row.decode(column: "subject_information", as: String?.self))
            let stored = [record, sealed, try row.decode(column: "response", as: String.self)].joined()
            for clear in ["ada@example.com", "Lovelace"] { #expect(!stored.contains(clear)) }
            let expected = try SealedSubjectInformation(Self.information, appId: app, eventId: request.eventId, secret: testSecret)
            #expect(record.contains(#""subjectInformationHash":"\#(expected.hash)""#))
            #expect(sealed != expected.sealed)  // a new nonce for every sealing
            // Not part of the subject's state either: a device's sync never reads it.
            let state = try #require(try await store.currentJSON(appId: app, subjectId: "user-1"))
            #expect(!state.contains("ada@example.com"))
        }
    }

    @Test("002-9: the subject's history and export give the subject information back, per event", arguments: StoreEngine.configured)
    func exportGivesTheSubjectInformationBack(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            _ = try await store.append(appId: app, request: Self.fullEvent(), credential: .secret)
            _ = try await store.append(appId: app, request: Self.fullEvent(subject: nil, collectedAt: 1_763_000_001_000), credential: .secret)
            let export = try #require(try await store.export(appId: app, subjectId: "user-1"))
            #expect(export.events.map(\.subject) == [Self.information, nil])
            let page = try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil)
            #expect(page.events.first?.subject == Self.information)
        }
    }

    @Test("002-9: erasing the subject deletes its events' subject information", arguments: StoreEngine.configured)
    func erasureDeletesTheSubjectInformation(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let request = Self.fullEvent()
            _ = try await store.append(appId: app, request: request, credential: .secret)
            #expect(try await store.erase(appId: app, subjectId: "user-1")?.eventsErased == 1)
            let sealed = try await database.read { db in
                try await db.raw("SELECT subject_information FROM consent_events WHERE event_id = \(bind: request.eventId)").first()?
                    .decode(column: "subject_information", as: String?.self)
            }
            #expect(sealed == nil)
            #expect(try await store.export(appId: app, subjectId: "user-1") == nil)
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("002-9: a retry carries the same subject information; other information under the same event id is a conflict",
          arguments: StoreEngine.configured)
    func subjectInformationIsPartOfTheEvent(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let id = UUID()
            let first = try await store.append(appId: app, request: Self.fullEvent(id), credential: .secret)
            let again = try await store.append(appId: app, request: Self.fullEvent(id), credential: .secret)
            #expect(!again.created)
            #expect(try again.result() == first.result())
            await #expect(throws: StoreError.eventIdConflict(id.uuidString.lowercased(), erased: false)) {
                try await store.append(appId: app, request: Self.fullEvent(id, subject: SubjectInformation(email: "eve@example.com")),
                                       credential: .secret)
            }
        }
    }

    @Test("002-9: sealed subject information is bound to its event: moved to another row, it does not open", arguments: StoreEngine.configured)
    func sealedInformationIsBoundToItsEvent(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let first = Self.fullEvent()
            let second = Self.fullEvent(subject: SubjectInformation(email: "other@example.com"), collectedAt: 1_763_000_001_000)
            _ = try await store.append(appId: app, request: first, credential: .secret)
            _ = try await store.append(appId: app, request: second, credential: .secret)
            try await database.transaction { db in
                let sealed = try await db.raw("SELECT subject_information FROM consent_events WHERE event_id = \(bind: first.eventId)").first()?
                    .decode(column: "subject_information", as: String.self)
                try await db.raw("UPDATE consent_events SET subject_information = \(bind: sealed) WHERE event_id = \(bind: second.eventId)").run()
            }
            await #expect(throws: StoreError.subjectInformationUnreadable(second.eventId)) {
                try await store.export(appId: app, subjectId: "user-1")
            }
        }
    }

    @Test("002-13, 002-14, 002-15: preferences, legal notices and the document hash are kept with the event, its state and its chain",
          arguments: StoreEngine.configured)
    func recordFieldsAreKept(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let request = Self.fullEvent()
            _ = try await store.append(appId: app, request: request, credential: .secret)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.consent == request.consent)
            #expect(state.consent.proof.documentHash == Self.documentHash)
            let export = try #require(try await store.export(appId: app, subjectId: "user-1"))
            #expect(export.events.first?.consent == request.consent)
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("002-15: the SDK's document hash is SHA-256, as consentd's own cryptography computes it",
          arguments: ["", "abc", String(repeating: "notice ", count: 100), #"{"texts":"Ä ü ß 日本"}"#])
    func documentHashIsSHA256(document: String) {
        #expect(ConsentProof.hash(ofDocument: Array(document.utf8)) == HashChain.recordHash(document))
    }

    @Test("002-9, 002-13, 002-14, 002-15: the full record goes through POST /v1/consents, and the export shows the subject information")
    func fullRecordOverHTTP() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let body = eventJSON(extra: #"""
                "purposeConsents": [1, 2],
                "subject": {"email": "ada@example.com", "fullName": "Ada Lovelace", "verified": true},
                "preferences": {"newsletter": true, "frequency": "weekly"},
                "legalNotices": [{"identifier": "privacy_policy", "version": "7"}]
                """#).replacingOccurrences(of: #""method": "custom""#, with: #""method": "custom", "documentHash": "\#(Self.documentHash)""#)
            let created = try await client.send(.post, "/v1/consents", bearer: server.secret, json: body)
            #expect(created.status == .created)
            let consent = try #require((created.object["current"] as? [String: Any])?["consent"] as? [String: Any])
            let preferences = try #require(consent["preferences"] as? [String: Any])
            #expect(preferences["newsletter"] as? Bool == true)
            #expect(preferences["frequency"] as? String == "weekly")
            #expect((consent["proof"] as? [String: Any])?["documentHash"] as? String == Self.documentHash)
            #expect(!String(decoding: created.body.readableBytesView, as: UTF8.self).contains("ada@example.com"))
            let export = try await client.send(.get, "/v1/subjects/user-1/export", bearer: server.secret)
            let events = try #require(export.object["events"] as? [[String: Any]])
            let subject = try #require(events.first?["subject"] as? [String: Any])
            #expect(subject["email"] as? String == "ada@example.com")
            #expect(subject["fullName"] as? String == "Ada Lovelace")
            #expect(subject["verified"] as? Bool == true)
        }
    }

    static let longKey = String(repeating: "k", count: 101)
    static let manyPreferences = (1...65).map { "\"p\($0)\": true" }.joined(separator: ", ")
    static let largePreferences = (1...9).map { "\"p\($0)\": \"\(String(repeating: "x", count: 1000))\"" }.joined(separator: ", ")

    @Test("002-9, 002-13, 002-14, 002-15: a record field out of bounds is refused with a typed error naming it", arguments: [
        (#""preferences": {}"#, "preferences"),
        ("\"preferences\": {\(manyPreferences)}", "preferences"),
        ("\"preferences\": {\(largePreferences)}", "preferences"),
        ("\"preferences\": {\"\(longKey)\": true}", "preferences.\(longKey)"),
        ("\"preferences\": {\"note\": \"\(String(repeating: "x", count: 1025))\"}", "preferences.note"),
        (#""preferences": {"nested": {"a": 1}}"#, "preferences.nested"),
        (#""preferences": {"ratio": 0.5}"#, "preferences.ratio"),
        (#""preferences": {"bad\u0000key": true}"#, "preferences.bad\u{0}key"),
        (#""legalNotices": []"#, "legalNotices"),
        (#""legalNotices": [{"identifier": "terms", "version": "1"}, {"identifier": "terms", "version": "2"}]"#, "legalNotices[1].identifier"),
        (#""legalNotices": [{"identifier": "terms"}]"#, "legalNotices[0].version"),
        (#""legalNotices": [{"identifier": "terms", "version": "1", "url": "https://example.com"}]"#, "legalNotices[0].url"),
        (#""subject": {}"#, "subject"),
        (#""subject": {"email": "not-an-address"}"#, "subject.email"),
        (#""subject": {"email": "ada@example.com", "phone": "+44"}"#, "subject.phone"),
        (#""subject": {"firstName": ""}"#, "subject.firstName"),
    ] as [(String, String)])
    func outOfBoundsFieldsAreRefused(extra: String, field: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                 json: eventJSON(extra: "\"purposeConsents\": [1], " + extra))
            #expect(response.status.code == 400)
            #expect(response.errorCode == "invalid_field" || response.errorCode == "missing_field")
            #expect(response.errorField == field)
        }
    }

    @Test("002-15: proof.documentHash must be 64 lower-case hexadecimal digits", arguments: [
        String(repeating: "a", count: 63), String(repeating: "A", count: 64), String(repeating: "g", count: 64), "sha256:" + String(repeating: "a", count: 64),
    ])
    func documentHashIsChecked(hash: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let body = eventJSON().replacingOccurrences(of: #""method": "custom""#, with: #""method": "custom", "documentHash": "\#(hash)""#)
            let response = try await client.send(.post, "/v1/consents", bearer: server.secret, json: body)
            #expect(response.status.code == 400)
            #expect(response.errorField == "proof.documentHash")
        }
    }

    @Test("002-13: preferences ride with a decision: an event of preferences alone is refused, and the subject's decision stays")
    func preferencesAloneAreRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON()).status == .created)
            let response = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(extra: #""preferences": {"newsletter": false}"#))
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "missing_field")
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            #expect((state.object["consent"] as? [String: Any])?["purposeConsents"] as? [Int] == [1, 2])
            let withDecision = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                     json: eventJSON(extra: #""purposeConsents": [1], "preferences": {"newsletter": false}"#))
            #expect(withDecision.status == .created)
        }
    }
}
