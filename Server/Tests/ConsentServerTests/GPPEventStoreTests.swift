@testable import ConsentServer
import ConsentRequests
import ConsentdAPI
import Foundation
import SQLKit
import Testing

/// Consent events with a GPP string (issue 28 §3): the string kept in the record and the
/// subject's state (so a user's other devices receive it, as the TC string), and its values in
/// columns for queries (migration 4), on every engine.
@Suite("GPP strings in the consent store")
struct GPPEventStoreTests {
    /// California, the user opted out of sale and sharing, with a GPC sub-section saying false.
    static let californiaOptedOut = "DBABBg~BVVqAAEABgA.QA"

    /// A checked event whose consent is the GPP string `gppString` alone (a US choice on the web).
    static func usEvent(_ gppString: String, id: UUID = UUID(), collectedAt: Int64 = 1_763_000_000_000) -> CheckedConsentEvent {
        CheckedConsentEvent(
            eventId: id.uuidString.lowercased(), subjectId: "user-1", collectedAtMilliseconds: collectedAt,
            consent: ConsentRecord(
                gppString: gppString,
                proof: ConsentProof(noticeId: "web:site", noticeVersion: "0", language: "en", sdkVersion: "1.0", platform: .web, method: .rejectAll)))
    }

    /// The gpp columns of the event `eventId`, as `[section, sale, sharing, targeted, gpc]`.
    static func columns(_ database: Database, _ eventId: String) async throws -> [Int?] {
        let row = try #require(try await database.read { db in
            try await db.raw("""
                SELECT gpp_section_id, gpp_sale_opt_out, gpp_sharing_opt_out, gpp_targeted_advertising_opt_out, gpp_gpc
                FROM consent_events WHERE event_id = \(bind: eventId)
                """).first()
        })
        return try ["gpp_section_id", "gpp_sale_opt_out", "gpp_sharing_opt_out", "gpp_targeted_advertising_opt_out", "gpp_gpc"].map {
            try row.decode(column: $0, as: Int?.self)
        }
    }

    @Test("an event's GPP string is its record's and the subject's state's, which a device's sync reads", arguments: StoreEngine.configured)
    func stringInRecordAndState(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let request = Self.usEvent(Self.californiaOptedOut)
            _ = try await store.append(appId: app, request: request, credential: .publishable)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.consent.gppString == Self.californiaOptedOut && state.consent.tcString == nil)
            let page = try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil)
            #expect(page.events.first?.consent.gppString == Self.californiaOptedOut)
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("the section, its sale and sharing opt-outs and GPC are columns for queries; an opt-out the section lacks is NULL",
          arguments: StoreEngine.configured)
    func valuesInColumns(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let request = Self.usEvent(Self.californiaOptedOut)
            _ = try await store.append(appId: app, request: request, credential: .publishable)
            // usca has no TargetedAdvertisingOptOut.
            #expect(try await Self.columns(database, request.eventId) == [8, 1, 1, nil, 0])
            let opted = try await database.read { db in
                try await db.raw("""
                    SELECT COUNT(*) AS n FROM consent_events WHERE app_id = \(bind: app) AND gpp_section_id = 8 AND gpp_sale_opt_out = 1
                    """).first()?.decode(column: "n", as: Int.self)
            }
            #expect(opted == 1)
        }
    }

    @Test("an event without a GPP string leaves the columns NULL; erasing a subject clears them", arguments: StoreEngine.configured)
    func nullWithoutAndAfterErasure(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let plain = event()
            _ = try await store.append(appId: app, request: plain, credential: .publishable)
            #expect(try await Self.columns(database, plain.eventId) == [nil, nil, nil, nil, nil])
            let us = Self.usEvent(Self.californiaOptedOut, collectedAt: 1_763_000_001_000)
            _ = try await store.append(appId: app, request: us, credential: .publishable)
            #expect(try await store.erase(appId: app, subjectId: "user-1")?.eventsErased == 2)
            #expect(try await Self.columns(database, us.eventId) == [nil, nil, nil, nil, nil])
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("POST /v1/consents takes an event whose consent is a GPP string alone, and refuses one that does not decode, naming the field")
    func checkedOnReceipt() throws {
        func body(_ gppString: String) -> Data {
            Data(#"""
                {"eventId":"0f8fad5b-d9cb-469f-a165-70867728950e","collectedAt":"2026-11-23T10:15:30.250Z",
                 "gppString":"\#(gppString)","proof":{"noticeId":"main","noticeVersion":"1","language":"en","sdkVersion":"1.0",
                 "platform":"web","method":"rejectAll"}}
                """#.utf8)
        }
        let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
        #expect(try CheckedConsentEvent.decode(body(Self.californiaOptedOut), now: now).consent.gppString == Self.californiaOptedOut)
        #expect(throws: InvalidField.self) { try CheckedConsentEvent.decode(body("DBABBg~%%"), now: now) }
        do {
            _ = try CheckedConsentEvent.decode(body("CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA"), now: now)
            Issue.record("a TC string is not a GPP string")
        } catch {
            #expect(error.field == "gppString" && error.code == .invalidConsentString)
        }
    }
}
