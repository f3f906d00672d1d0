import Foundation
import TCF

/// The body of `POST /v1/consents`, checked field by field.
///
/// Decoding refuses unknown fields, wrong types, out-of-range ids and consent strings that do not
/// decode, with an `InvalidField` error that names the field.
public struct ConsentEventRequest: Sendable, Equatable {
    /// The client-generated event id (a UUID, lower-cased here).
    public var eventId: String
    /// The subject the event is about; nil asks the server to create one.
    public var subjectId: String?
    /// When the user made the choice, by the client's clock, in milliseconds since 1970.
    public var collectedAtMilliseconds: Int64
    /// The choice and its proof.
    public var consent: ConsentRecord

    /// Creates a request.
    public init(eventId: String, subjectId: String?, collectedAtMilliseconds: Int64, consent: ConsentRecord) {
        self.eventId = eventId
        self.subjectId = subjectId
        self.collectedAtMilliseconds = collectedAtMilliseconds
        self.consent = consent
    }

    /// The largest id a purpose, feature or vendor list may hold (TCF ids are 16-bit).
    static let maxId = 65535
    /// The longest string field accepted.
    static let maxStringLength = 16384
    /// How far after the server's clock `collectedAt` may lie.
    public static let allowedClockSkew: TimeInterval = 10 * 60
    /// The earliest `collectedAt` accepted: the day the GDPR began to apply.
    public static let earliestCollectedAt = Date(timeIntervalSince1970: 1_527_206_400)  // 2018-05-25

    /// Decodes and checks a request body; `now` bounds `collectedAt`.
    public static func decode(_ body: Data, now: Date = Date()) throws(InvalidField) -> ConsentEventRequest {
        let raw: RawEvent
        do {
            raw = try JSONDecoder().decode(RawEvent.self, from: body)
        } catch let error as InvalidField {
            throw error
        } catch let error as DecodingError {
            throw InvalidField(decodingError: error)
        } catch {
            throw InvalidField(code: .invalidJSON, field: nil, message: "the body is not JSON: \(error)")
        }
        return try raw.checked(now: now)
    }
}

/// A request field that is missing, of the wrong type or out of range.
public struct InvalidField: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, as the API's error code.
    public enum Code: String, Sendable {
        /// The body is not JSON, or not an object.
        case invalidJSON = "invalid_json"
        /// A required field is absent.
        case missingField = "missing_field"
        /// A field has the wrong type, an unknown name, or a value out of range.
        case invalidField = "invalid_field"
        /// A consent string does not decode.
        case invalidConsentString = "invalid_consent_string"
    }

    /// The kind of problem.
    public let code: Code
    /// The field's path (`proof.method`, `vendorConsents[3]`), nil for the whole body.
    public let field: String?
    /// What is wrong and what is expected.
    public let message: String

    /// Creates an error.
    public init(code: Code, field: String?, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    init(decodingError: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String? {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? nil : text
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            self.init(code: .missingField, field: path(context.codingPath + [key]), message: "\(path(context.codingPath + [key]) ?? key.stringValue) is required")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            self.init(code: field == nil ? .invalidJSON : .invalidField, field: field,
                      message: "\(field ?? "the body") must be \(Self.describe(type))")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            self.init(code: field == nil ? .invalidJSON : .invalidField, field: field,
                      message: field == nil ? "the body is not valid JSON" : "\(field!) is not valid: \(context.debugDescription)")
        @unknown default:
            self.init(code: .invalidJSON, field: nil, message: "the body could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "a boolean"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    /// `field: message`, or the message alone.
    public var description: String { message }
}

/// The body as sent, before range checks.
private struct RawEvent: Decodable {
    var eventId: String
    var subjectId: String?
    var collectedAt: String
    var tcString: String?
    var consentStringV1: String?
    var googleAdsChoice: String?
    var additionalConsent: String?
    var purposeConsents: [Int]?
    var purposeLegitimateInterests: [Int]?
    var specialFeatureOptins: [Int]?
    var vendorConsents: [Int]?
    var vendorLegitimateInterests: [Int]?
    var proof: RawProof

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case eventId, subjectId, collectedAt, tcString, consentStringV1, googleAdsChoice, additionalConsent
        case purposeConsents, purposeLegitimateInterests, specialFeatureOptins, vendorConsents, vendorLegitimateInterests
        case proof
    }

    init(from decoder: any Decoder) throws {
        try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        eventId = try c.decode(String.self, forKey: .eventId)
        subjectId = try c.decodeIfPresent(String.self, forKey: .subjectId)
        collectedAt = try c.decode(String.self, forKey: .collectedAt)
        tcString = try c.decodeIfPresent(String.self, forKey: .tcString)
        consentStringV1 = try c.decodeIfPresent(String.self, forKey: .consentStringV1)
        googleAdsChoice = try c.decodeIfPresent(String.self, forKey: .googleAdsChoice)
        additionalConsent = try c.decodeIfPresent(String.self, forKey: .additionalConsent)
        purposeConsents = try c.decodeIfPresent([Int].self, forKey: .purposeConsents)
        purposeLegitimateInterests = try c.decodeIfPresent([Int].self, forKey: .purposeLegitimateInterests)
        specialFeatureOptins = try c.decodeIfPresent([Int].self, forKey: .specialFeatureOptins)
        vendorConsents = try c.decodeIfPresent([Int].self, forKey: .vendorConsents)
        vendorLegitimateInterests = try c.decodeIfPresent([Int].self, forKey: .vendorLegitimateInterests)
        proof = try c.decode(RawProof.self, forKey: .proof)
    }

    func checked(now: Date) throws(InvalidField) -> ConsentEventRequest {
        guard let uuid = UUID(uuidString: eventId) else {
            throw InvalidField(code: .invalidField, field: "eventId", message: "eventId must be a UUID (8-4-4-4-12 hexadecimal digits)")
        }
        if let subjectId {
            try checkLength(subjectId, field: "subjectId", max: 256)
        }
        guard let collected = Timestamps.parse(collectedAt) else {
            throw InvalidField(code: .invalidField, field: "collectedAt",
                               message: "collectedAt must be an ISO 8601 date-time with a time zone, such as 2026-11-23T10:15:30.250Z")
        }
        if collected > now.addingTimeInterval(ConsentEventRequest.allowedClockSkew) {
            throw InvalidField(code: .invalidField, field: "collectedAt",
                               message: "collectedAt \(collectedAt) lies more than 10 minutes after the server's clock (\(Timestamps.format(now)))")
        }
        if collected < ConsentEventRequest.earliestCollectedAt {
            throw InvalidField(code: .invalidField, field: "collectedAt", message: "collectedAt must not be before 2018-05-25")
        }
        if let tcString {
            try checkLength(tcString, field: "tcString", max: ConsentEventRequest.maxStringLength)
            do {
                let decoded = try ConsentString(decoding: tcString)
                guard case .v2 = decoded else {
                    throw InvalidField(code: .invalidConsentString, field: "tcString", message: "tcString is a TCF v1 string; send it as consentStringV1")
                }
            } catch let error as TCFDecodingError {
                throw InvalidField(code: .invalidConsentString, field: "tcString", message: "tcString does not decode: \(error)")
            } catch let error as InvalidField {
                throw error
            } catch {
                throw InvalidField(code: .invalidConsentString, field: "tcString", message: "tcString does not decode: \(error)")
            }
        }
        if let consentStringV1 {
            try checkLength(consentStringV1, field: "consentStringV1", max: ConsentEventRequest.maxStringLength)
            do {
                _ = try ConsentStringV1(decoding: consentStringV1)
            } catch {
                throw InvalidField(code: .invalidConsentString, field: "consentStringV1", message: "consentStringV1 does not decode: \(error)")
            }
        }
        var choice: GoogleAdsChoice?
        if let googleAdsChoice {
            guard let value = GoogleAdsChoice(rawValue: googleAdsChoice) else {
                throw InvalidField(code: .invalidField, field: "googleAdsChoice",
                                   message: "googleAdsChoice must be one of personalized, nonPersonalized, adFree")
            }
            choice = value
        }
        if let additionalConsent {
            try checkLength(additionalConsent, field: "additionalConsent", max: ConsentEventRequest.maxStringLength)
            guard AdditionalConsent.isWellFormed(additionalConsent) else {
                throw InvalidField(code: .invalidConsentString, field: "additionalConsent",
                                   message: "additionalConsent must look like 2~1.35.41~dv.9.21 (version~consented ids[~dv.disclosed ids])")
            }
        }
        let lists: [(String, [Int]?)] = [
            ("purposeConsents", purposeConsents), ("purposeLegitimateInterests", purposeLegitimateInterests),
            ("specialFeatureOptins", specialFeatureOptins), ("vendorConsents", vendorConsents),
            ("vendorLegitimateInterests", vendorLegitimateInterests),
        ]
        var sorted: [String: [Int]] = [:]
        for (field, ids) in lists {
            guard let ids else { continue }
            for (index, id) in ids.enumerated() where !(1...ConsentEventRequest.maxId).contains(id) {
                throw InvalidField(code: .invalidField, field: "\(field)[\(index)]", message: "\(field)[\(index)] is \(id); ids run from 1 to 65535")
            }
            sorted[field] = Array(Set(ids)).sorted()
        }
        let anyConsent = tcString != nil || consentStringV1 != nil || googleAdsChoice != nil || additionalConsent != nil || !sorted.isEmpty
        guard anyConsent else {
            throw InvalidField(code: .missingField, field: nil,
                               message: "an event needs at least one of tcString, consentStringV1, googleAdsChoice, additionalConsent or an id list")
        }
        let record = ConsentRecord(
            tcString: tcString, consentStringV1: consentStringV1, googleAdsChoice: choice, additionalConsent: additionalConsent,
            purposeConsents: sorted["purposeConsents"], purposeLegitimateInterests: sorted["purposeLegitimateInterests"],
            specialFeatureOptins: sorted["specialFeatureOptins"], vendorConsents: sorted["vendorConsents"],
            vendorLegitimateInterests: sorted["vendorLegitimateInterests"], proof: try proof.checked()
        )
        return ConsentEventRequest(
            eventId: uuid.uuidString.lowercased(), subjectId: subjectId,
            collectedAtMilliseconds: Timestamps.milliseconds(collected), consent: record
        )
    }
}

private struct RawProof: Decodable {
    var noticeId: String
    var noticeVersion: String
    var language: String
    var sdkVersion: String
    var platform: String
    var method: String

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case noticeId, noticeVersion, language, sdkVersion, platform, method
    }

    init(from decoder: any Decoder) throws {
        try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        noticeId = try c.decode(String.self, forKey: .noticeId)
        noticeVersion = try c.decode(String.self, forKey: .noticeVersion)
        language = try c.decode(String.self, forKey: .language)
        sdkVersion = try c.decode(String.self, forKey: .sdkVersion)
        platform = try c.decode(String.self, forKey: .platform)
        method = try c.decode(String.self, forKey: .method)
    }

    func checked() throws(InvalidField) -> ConsentProof {
        try checkLength(noticeId, field: "proof.noticeId", max: 200)
        try checkLength(noticeVersion, field: "proof.noticeVersion", max: 100)
        try checkLength(sdkVersion, field: "proof.sdkVersion", max: 100)
        guard (2...35).contains(language.count), language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw InvalidField(code: .invalidField, field: "proof.language", message: "proof.language must be a BCP 47 language tag such as de or pt-BR")
        }
        guard let platform = ConsentProof.Platform(rawValue: platform) else {
            throw InvalidField(code: .invalidField, field: "proof.platform", message: "proof.platform must be one of ios, android, web, other")
        }
        guard let method = ConsentProof.Method(rawValue: method) else {
            throw InvalidField(code: .invalidField, field: "proof.method",
                               message: "proof.method must be one of acceptAll, rejectAll, custom, sync, programmatic")
        }
        return ConsentProof(noticeId: noticeId, noticeVersion: noticeVersion, language: language, sdkVersion: sdkVersion,
                            platform: platform, method: method)
    }
}

private func checkLength(_ value: String, field: String, max: Int) throws(InvalidField) {
    let count = value.utf8.count
    guard count >= 1, count <= max else {
        throw InvalidField(code: .invalidField, field: field, message: "\(field) must be 1 to \(max) bytes long, not \(count)")
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Refuses an object with a key outside `known`, naming it.
private func refuseUnknownKeys(in decoder: any Decoder, known: [String]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    let unknown = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
    if let first = unknown.first {
        let prefix = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        let field = prefix.isEmpty ? first : "\(prefix).\(first)"
        throw InvalidField(code: .invalidField, field: field, message: "\(field) is not a field of this object")
    }
}

/// Google's Additional Consent string: `2~ids~dv.ids` (ids dot-separated, each part optional).
enum AdditionalConsent {
    static func isWellFormed(_ string: String) -> Bool {
        let parts = string.split(separator: "~", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let version = Int(parts[0]), version >= 1 else { return false }
        func ids(_ part: Substring) -> Bool {
            part.isEmpty || part.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { Int($0).map { $0 > 0 } ?? false }
        }
        if parts.count >= 2, !ids(parts[1]) { return false }
        if parts.count == 3 {
            guard parts[2].hasPrefix("dv.") || parts[2] == "dv" else { return false }
            let disclosed = parts[2].dropFirst(parts[2] == "dv" ? 2 : 3)
            return ids(disclosed)
        }
        return true
    }
}
