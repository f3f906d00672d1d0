@testable import ConsentServer
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The wire types are defined once, in `ConsentdAPI`, for the SDK and the server: these tests
/// hold that one definition to `Server/openapi.yaml`, field by field and value by value.
extension OpenAPIContractTests {
    static let proof = ConsentProof(noticeId: "main", noticeVersion: "3", language: "de", sdkVersion: "1.0.0", platform: .ios, method: .custom)
    static let fullProof = ConsentProof(noticeId: "main", noticeVersion: "3", language: "de", sdkVersion: "1.0.0", platform: .ios, method: .custom,
                                        documentHash: String(repeating: "ab", count: 32))
    static let fullRecord = ConsentRecord(
        tcString: "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA",
        consentStringV1: "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", gppString: "DBABBg~BVVqAAEABgA.QA", googleAdsChoice: .personalized, additionalConsent: "2~89.1301~dv.",
        purposeConsents: [1, 2, 3], purposeLegitimateInterests: [2, 7], specialFeatureOptins: [1], vendorConsents: [21, 755],
        vendorLegitimateInterests: [755], preferences: ["newsletter": .bool(true), "level": .integer(2), "frequency": .string("weekly")],
        legalNotices: [LegalNotice(identifier: "privacy_policy", version: "7")], proof: fullProof)
    static let subject = SubjectInformation(email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", fullName: "Ada Lovelace", verified: true)
    static let provider = AppConfig.AdTechProvider(id: 89, name: "Example Ads", privacyPolicyUrl: "https://ads.example.com/privacy")
    static let publisher = AppConfig.Publisher(id: "pub-news", name: "Example News", vendorIds: [21, 755], adTechProviders: [provider],
                                               nonPersonalizedOnly: false)
    /// A US choice's record (kind `us`, decision record 0035) with every field it may carry.
    static let usRecord = ConsentRecord(
        gppString: "DBABBg~BVVqAAEABgA.QA", kind: .us,
        usChoice: USChoiceRecord(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: false, sensitiveDataLimited: true),
        proof: fullProof)
    /// `fullRecord` with the US choice's fields too: every property of the record's schemas, for
    /// the shape tests (no such record is valid: a US choice carries no TCF field).
    static var everyField: ConsentRecord {
        var record = fullRecord
        record.kind = usRecord.kind
        record.usChoice = usRecord.usChoice
        return record
    }
    static let state = SubjectState(subjectId: "user-1", eventId: "0f8fad5b-d9cb-469f-a165-70867728950e",
                                    collectedAt: "2026-11-23T10:15:30.250Z", receivedAt: "2026-11-23T10:15:31.000Z", consent: everyField,
                                    otherKinds: [SubjectState(subjectId: "user-1", eventId: "1f8fad5b-d9cb-469f-a165-70867728950e",
                                                              collectedAt: "2026-11-23T10:16:30.250Z", receivedAt: "2026-11-23T10:16:31.000Z",
                                                              consent: everyField)])

    /// A `gpp` object of the web CMP's answers, with every field set.
    static let webGPP = WebGPP(
        gppString: "DBABBg~BVoYYYAAEABgA.QA", sectionList: [8], applicableSections: [8],
        parsedSections: .object(["usca": .array([.object(["Version": .integer(1), "SaleOptOut": .integer(1)]),
                                                 .object(["SubsectionType": .integer(1), "Gpc": .bool(false)])])]),
        supportedAPIs: ["2:tcfeuv2", "8:usca"], mspaCoveredTransaction: true, mspaMode: .serviceProvider)

    /// The options of a published notice, with every field set (logo, font stack, texts).
    static let noticeOptions = NoticeOptions(
        publisherName: "Example News", privacyPolicyUrl: "https://news.example/privacy", logo: "https://news.example/logo.png",
        layout: .banner, firstLayer: .purposes, offersAdFree: true,
        theme: NoticeTheme(fontFamily: "\"Source Sans 3\", sans-serif", buttonStyle: .outlined), languages: ["en", "de"],
        texts: ["en": ["noticeTitle": "Your choices"], "de": ["noticeTitle": "Ihre Wahl"]])

    /// Values with every field set, by the schema that describes them.
    static func fullValues() throws -> [(String, Data)] {
        let encoder = JSONEncoder()
        // A web page's own US choice (decision record 0046).
        let usChoice = USChoiceRecord(saleOptOut: false, sharingOptOut: true, targetedAdvertisingOptOut: false, sensitiveDataLimited: true)
        return [
            ("Config", try encoder.encode(AppConfig(
                appId: "com.example.news", gdprApplies: false, region: .us, country: "US", geoSource: .header, publishers: [publisher],
                vendorIds: [21, 755], adTechProviders: [provider], vendorListVersion: 45, tcfPolicyVersion: 4,
                gvlSpecificationVersion: 3, cmp: AppConfig.CMP(id: 300, version: 2), subdivision: "CA",
                gpp: GPPApplicability(applicableSections: [7], mspaCoveredTransaction: true, mspaMode: .optOut),
                notice: AppConfig.NoticeVersions(noticeVersion: 3, materialNoticeVersion: 2, options: noticeOptions)))),
            ("ConsentEvent", try encoder.encode(ConsentEventRequest(
                eventId: UUID(), subjectId: "user-1", collectedAt: Date(), subject: subject, consent: everyField))),
            ("AppendResult", try encoder.encode(AppendResult(eventId: state.eventId, subjectId: "sub_1", outcome: .current, current: state,
                                                             subjectToken: "ckt_e30.c2ln"))),
            ("Error", try encoder.encode(ConsentdErrorBody(code: "invalid_field", message: "proof.method must be …", field: "proof.method"))),
            ("ConsentBatchRequest", try encoder.encode(ConsentBatchRequest(events: [
                ConsentEventRequest(eventId: UUID(), subjectId: "user-1", collectedAt: Date(), subject: subject, consent: everyField)]))),
            ("ConsentBatchResponse", try encoder.encode(ConsentBatchResponse(results: [batchItem]))),
            ("ConsentBatchItem", try encoder.encode(batchItem)),
            ("WebSessionRequest", try encoder.encode(WebSessionRequest(
                credential: "ck_pub_k_s", language: "de-AT", tcString: fullRecord.tcString, addtlConsent: "2~89~dv.", reopen: true,
                debugRegion: .eea, gppString: "DBABBg~BVoYYYAAEABgA.QA", gpc: true, usChoice: usChoice))),
            ("WebChoiceRequest", try encoder.encode(WebChoiceRequest(
                credential: "ckt_e30.c2ln", language: "de", tcString: fullRecord.tcString, addtlConsent: "2~89~dv.", reopen: false,
                subjectId: "sub_1", message: .object(["protocol": .integer(1), "type": .string("result"), "action": .string("acceptAll")]),
                appConsent: WebChoiceRequest.AppConsent(tcString: fullRecord.tcString ?? "", addtlConsent: "2~89~dv.",
                                                        subjectToken: "ckt_e30.c2ln", subjectId: "user-1"),
                gppString: "DBABBg~BVoYYYAAEABgA.QA", gpc: false, usChoice: usChoice))),
            ("DemoResultRequest", try encoder.encode(DemoResultRequest(
                options: DemoOptions(mode: .google, language: "de", vendors: "all", reopen: true, adFree: true, tcString: fullRecord.tcString,
                                     region: "us-ca", gppString: "DBABBg~BVoYYYAAEABgA.QA"),
                message: .object(["protocol": .integer(1), "type": .string("result")]), credential: "ck_pub_k_s", subjectId: "sub_1"))),
            ("WebSession", try encoder.encode(WebSession(
                gdprApplies: true, region: "eea", ask: "noDecision", cmpId: 300, cmpVersion: 2, gvlVersion: 45, tcfPolicyVersion: 4,
                tcData: .object(["tcString": .string("CQ")]), uiTCData: .object(["tcString": .string("CQ")]), document: .object(["protocol": .integer(1)]),
                storedStringRefused: "it does not decode", subjectToken: "ckt_e30.c2ln", subdivision: "CA",
                gpp: webGPP))),
            ("WebChoice", try encoder.encode(WebChoice(action: "acceptAll", recorded: WebChoice.Recorded(
                tcString: fullRecord.tcString ?? "", addtlConsent: "2~89~dv.", tcData: .object(["tcString": .string("CQ")]), subjectId: "sub_1",
                subjectToken: "ckt_e30.c2ln",
                event: AppendResult(eventId: state.eventId, subjectId: "sub_1", outcome: .current, current: state, subjectToken: "ckt_e30.c2ln"),
                gpp: webGPP, usChoice: usChoice)))),
            ("WebGPP", try encoder.encode(webGPP)),
        ]
    }

    /// A batch's result with every field set (the server sends `result` or `error`, never both;
    /// the tour in answersAreDocumented checks what it sends).
    static let batchItem = ConsentBatchItem(
        eventId: state.eventId, status: 201,
        result: AppendResult(eventId: state.eventId, subjectId: "user-1", outcome: .current, current: state, subjectToken: "ckt_e30.c2ln"),
        error: ConsentdErrorBody.Detail(code: "invalid_field", message: "eventId must be a UUID", field: "eventId"))

    /// Values with only what is always written, by the schema that describes them.
    static func minimalValues() throws -> [(String, Data)] {
        let encoder = JSONEncoder()
        let record = ConsentRecord(proof: proof)
        return [
            ("Config", try encoder.encode(AppConfig(
                appId: "com.example.news", gdprApplies: nil, region: .unknown, country: nil, geoSource: .none, publishers: [publisher],
                vendorIds: [21, 755], adTechProviders: [provider], vendorListVersion: 45, tcfPolicyVersion: 4))),
            ("ConsentEvent", try encoder.encode(ConsentEventRequest(eventId: UUID(), collectedAt: Date(), consent: record))),
            ("AppendResult", try encoder.encode(AppendResult(
                eventId: state.eventId, subjectId: "user-1", outcome: .history,
                current: SubjectState(subjectId: "user-1", eventId: state.eventId, collectedAt: state.collectedAt,
                                      receivedAt: state.receivedAt, consent: record)))),
            ("Error", try encoder.encode(ConsentdErrorBody(code: "unauthorized", message: "send a key"))),
            ("ConsentBatchRequest", try encoder.encode(ConsentBatchRequest(events: [ConsentEventRequest(eventId: UUID(), collectedAt: Date(), consent: record)]))),
            ("ConsentBatchResponse", try encoder.encode(ConsentBatchResponse(results: [ConsentBatchItem(eventId: nil, status: 400)]))),
            ("ConsentBatchItem", try encoder.encode(ConsentBatchItem(eventId: nil, status: 400))),
            ("WebSessionRequest", try encoder.encode(WebSessionRequest(credential: "ck_pub_k_s"))),
            ("WebChoiceRequest", try encoder.encode(WebChoiceRequest(credential: "ck_pub_k_s"))),
            ("DemoResultRequest", try encoder.encode(DemoResultRequest(message: .object([:]), credential: "ck_pub_k_s"))),
            ("DemoOptions", try encoder.encode(DemoOptions())),
            ("WebSession", try encoder.encode(WebSession(
                gdprApplies: nil, region: "unknown", ask: nil, cmpId: 300, cmpVersion: 2, gvlVersion: 45, tcfPolicyVersion: 4, tcData: nil))),
            ("WebChoice", try encoder.encode(WebChoice(action: "dismissed"))),
        ]
    }

    @Test("each shared wire type writes exactly the properties openapi.yaml declares, of the documented types")
    func sharedTypesWriteTheDeclaredProperties() throws {
        let contract = OpenAPIContract.shared
        for (schema, json) in try Self.fullValues() {
            #expect(contract.propertyDifferences(json: json, schema: schema) == [], "\(schema)")
            #expect(contract.problems(json: json, schema: schema) == [], "\(schema)")
        }
    }

    @Test("what the shared wire types always write is what openapi.yaml requires")
    func sharedTypesWriteTheRequiredProperties() throws {
        let contract = OpenAPIContract.shared
        // Optional in Swift only so that an answer an app kept from an older server still decodes;
        // this server always writes them (the tour in answersAreDocumented checks its answers).
        let alwaysSentByThisServer = ["Config.cmp is required but not written", "Config.gvlSpecificationVersion is required but not written",
                                      "Config.gpp is required but not written", "WebSession.gpp is required but not written"]
        for (schema, json) in try Self.minimalValues() {
            let differences = contract.propertyDifferences(json: json, schema: schema, requiredOnly: true)
            #expect(differences.filter { !alwaysSentByThisServer.contains($0) } == [], "\(schema)")
        }
    }

    @Test("the request's and proof's field names are the ones openapi.yaml allows, and no others")
    func requestFieldNames() {
        let contract = OpenAPIContract.shared
        #expect(Set(ConsentEventRequest.fieldNames) == Set((contract.schema("ConsentEvent")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(contract.schema("ConsentEvent")["additionalProperties"] as? Bool == false)
        #expect(Set(ConsentProof.CodingKeys.allCases.map(\.rawValue)) == Set((contract.schema("Proof")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(contract.schema("Proof")["additionalProperties"] as? Bool == false)
        #expect(Set(ConsentRecord.CodingKeys.allCases.map(\.rawValue)) == Set((contract.schema("Consent")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(Set(USChoiceRecord.CodingKeys.allCases.map(\.rawValue)) == Set((contract.schema("USChoice")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(contract.schema("USChoice")["additionalProperties"] as? Bool == false)
        #expect(Set(SubjectState.CodingKeys.allCases.map(\.rawValue)) == Set((contract.schema("SubjectState")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(Set(SubjectInformation.CodingKeys.allCases.map(\.rawValue))
            == Set((contract.schema("SubjectInformation")["properties"] as? [String: Any] ?? [:]).keys))
        #expect(contract.schema("SubjectInformation")["additionalProperties"] as? Bool == false)
        let legalNotice = (contract.schema("LegalNotices")["items"] as? [String: Any]) ?? [:]
        #expect(Set(LegalNotice.CodingKeys.allCases.map(\.rawValue)) == Set((legalNotice["properties"] as? [String: Any] ?? [:]).keys))
        #expect(legalNotice["additionalProperties"] as? Bool == false)
    }

    @Test("a batch's size and its results' statuses are the ones openapi.yaml declares")
    func batchLimitsAndStatuses() throws {
        let contract = OpenAPIContract.shared
        let batch = contract.schema("ConsentBatchRequest")
        #expect(batch["additionalProperties"] as? Bool == false)
        let events = try #require((batch["properties"] as? [String: Any])?["events"] as? [String: Any])
        #expect(events["minItems"] as? Int == 1)
        #expect(events["maxItems"] as? Int == ConsentBatchRequest.maximumCount)
        let results = try #require((contract.schema("ConsentBatchResponse")["properties"] as? [String: Any])?["results"] as? [String: Any])
        #expect(results["maxItems"] as? Int == ConsentBatchRequest.maximumCount)
        // The statuses a result may carry: POST /v1/consents's own, less those that refuse a
        // request as a whole (401, 415, 429, 503); an event over the single limit is 413 in both.
        let single = Set(contract.statuses(method: "POST", template: "/v1/consents"))
        #expect(Set(contract.enumValues(schema: "ConsentBatchItem", property: "status")) == single.subtracting(["401", "415", "429", "503"]))
        let item = try JSONEncoder().encode(ConsentBatchItem(eventId: nil, status: 500, error: .init(code: "x", message: "y")))
        #expect(!contract.problems(json: item, schema: "ConsentBatchItem").isEmpty)
        let mixed = try JSONEncoder().encode(ConsentBatchItem(eventId: nil, status: 201, error: .init(code: "x", message: "y")))
        #expect(!contract.problems(json: mixed, schema: "ConsentBatchItem").isEmpty)
    }

    @Test("the shared enumerations have exactly openapi.yaml's values")
    func sharedEnumerations() {
        let contract = OpenAPIContract.shared
        #expect(AppConfig.Region.allCases.map(\.rawValue) == contract.enumValues(schema: "Config", property: "region"))
        #expect(AppConfig.GeoSource.allCases.map(\.rawValue) == contract.enumValues(schema: "Config", property: "geoSource"))
        #expect(DebugRegion.allCases.map(\.rawValue) == contract.enumValues(parameter: "DebugGeo"))
        #expect(GoogleAdsChoice.allCases.map(\.rawValue) == contract.enumValues(schema: "ConsentEvent", property: "googleAdsChoice"))
        #expect(GoogleAdsChoice.allCases.map(\.rawValue) == contract.enumValues(schema: "Consent", property: "googleAdsChoice"))
        #expect(ConsentProof.Platform.allCases.map(\.rawValue) == contract.enumValues(schema: "Proof", property: "platform"))
        #expect(ConsentProof.Method.allCases.map(\.rawValue) == contract.enumValues(schema: "Proof", property: "method"))
        #expect(AppendOutcome.allCases.map(\.rawValue) == contract.enumValues(schema: "AppendResult", property: "outcome"))
        #expect(ConsentRecord.Kind.allCases.map(\.rawValue) == contract.enumValues(schema: "ConsentEvent", property: "kind"))
        #expect(ConsentRecord.Kind.allCases.map(\.rawValue) == contract.enumValues(schema: "Consent", property: "kind"))
    }

    @Test("the server accepts what the shared request type writes and answers in the shared types")
    func serverSpeaksTheSharedTypes() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let decoder = JSONDecoder()
            let configResponse = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable,
                                                       headers: [HTTPField.Name("CF-IPCountry")!: "DE"])
            let config = try decoder.decode(AppConfig.self, from: Data(configResponse.body.readableBytesView))
            #expect(config.region == .eea && config.geoSource == .header && config.cmp == .development)

            var record = Self.fullRecord
            record.vendorConsents = config.vendorIds
            let event = ConsentEventRequest(subjectId: "user-7", collectedAt: Date(), consent: record)
            let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            let appended = try await client.send(.post, "/v1/consents", bearer: server.secret, json: json)
            #expect(appended.status == .created)
            let result = try decoder.decode(AppendResult.self, from: Data(appended.body.readableBytesView))
            #expect(result.eventId == event.eventId && result.outcome == .current)
            #expect(result.current.consent == record)

            let state = try await client.send(.get, "/v1/subjects/user-7", bearer: server.secret)
            #expect(try decoder.decode(SubjectState.self, from: Data(state.body.readableBytesView)) == result.current)

            let batch = ConsentBatchRequest(events: [
                ConsentEventRequest(subjectId: "user-7", collectedAt: Date(), consent: record),
                ConsentEventRequest(eventId: "not-a-uuid", subjectId: "user-7", collectedAt: "2026-01-01T00:00:00Z", consent: record),
            ])
            let batched = try await client.send(.post, "/v1/consents/batch", bearer: server.secret,
                                                json: String(decoding: try JSONEncoder().encode(batch), as: UTF8.self))
            #expect(batched.status == .ok)
            let answer = try decoder.decode(ConsentBatchResponse.self, from: Data(batched.body.readableBytesView))
            #expect(answer.results.map(\.status) == [201, 400])
            #expect(answer.results.map(\.eventId) == batch.events.map(\.eventId))
            #expect(answer.results[0].result?.current.consent == record)
            #expect(answer.results[1].error?.field == "eventId")

            let refused = try await client.send(.get, "/v1/config?publisherIds=pub-news&debug_geo=mars", bearer: server.publishable)
            let body = try decoder.decode(ConsentdErrorBody.self, from: Data(refused.body.readableBytesView))
            #expect(body.error.code == "invalid_field" && body.error.field == DebugRegion.queryName)
        }
    }
}
