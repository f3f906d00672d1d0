import ConsentKitFormats
import ConsentdAPI
import Foundation
import GPP
import TCF

/// A `POST /v1/consents` body that passed every check: what the store appends.
///
/// The body's shape (field names, optionality, nesting) is `ConsentdAPI`'s `ConsentEventRequest`;
/// decoding here also refuses unknown fields, then checks each field (UUID, time, lengths, id
/// ranges, consent strings that must decode) with an `InvalidField` error that names the field.
public struct CheckedConsentEvent: Sendable, Equatable {
    /// The client-generated event id (a UUID, lower-cased here).
    public var eventId: String
    /// The subject the event is about; nil asks the server to create one.
    public var subjectId: String?
    /// When the user made the choice, by the client's clock, in milliseconds since 1970.
    public var collectedAtMilliseconds: Int64
    /// The choice and its proof, id lists sorted and without repeats.
    public var consent: ConsentRecord
    /// What the publisher tells about the person, if anything (stored sealed, see the store).
    public var subject: SubjectInformation?

    /// Creates an event that is known to be valid.
    public init(eventId: String, subjectId: String?, collectedAtMilliseconds: Int64, consent: ConsentRecord, subject: SubjectInformation? = nil) {
        self.eventId = eventId
        self.subjectId = subjectId
        self.collectedAtMilliseconds = collectedAtMilliseconds
        self.consent = consent
        self.subject = subject
    }

    /// The largest id each id list may hold: what the TC string's fields can carry
    /// (`PurposesConsent` and `PurposesLITransparency` are 24 bits, `SpecialFeatureOptIns` 12,
    /// vendor ids 16).
    static let maxIds: [String: Int] = [
        "purposeConsents": 24, "purposeLegitimateInterests": 24, "specialFeatureOptins": 12,
        "vendorConsents": 65535, "vendorLegitimateInterests": 65535,
    ]
    /// The longest string field accepted.
    static let maxStringLength = 16384
    /// How far after the server's clock `collectedAt` may lie.
    public static let allowedClockSkew: TimeInterval = 10 * 60
    /// The earliest `collectedAt` accepted: the day the GDPR began to apply.
    public static let earliestCollectedAt = Date(timeIntervalSince1970: 1_527_206_400)  // 2018-05-25

    /// Decodes and checks a request body; `now` bounds `collectedAt`.
    public static func decode(_ body: Data, now: Date = Date()) throws(InvalidField) -> CheckedConsentEvent {
        // Foundation's decoder keeps one of two values under the same key without a word, and
        // refuses a fraction or an overflow without naming the field: both are found first.
        switch JSONPrescan.firstProblem(in: body) {
        case .duplicateKey(let path):
            throw InvalidField(code: .invalidField, field: path,
                               message: "\(path.isEmpty ? "the key \"\"" : path) appears more than once in its object")
        case .notAnInteger(let path, let text):
            throw InvalidField(code: .invalidField, field: path, message: "\(path) must be an integer id, not \(text)")
        case nil:
            break
        }
        let request: ConsentEventRequest
        do {
            request = try JSONDecoder().decode(StrictConsentEventRequest.self, from: body).request
        } catch let error as InvalidField {
            throw error
        } catch let error as DecodingError {
            throw InvalidField(decodingError: error)
        } catch {
            throw InvalidField(code: .invalidJSON, field: nil, message: "the body is not JSON: \(error)")
        }
        return try CheckedConsentEvent(checking: request, now: now)
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

    /// Creates an error; an empty `field` (the key `""`) is reported as none, so a field is
    /// always a path a client can read.
    public init(code: Code, field: String?, message: String) {
        self.code = code
        self.field = field?.isEmpty == true ? nil : field
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
            if let field, let allowed = Self.allowedValues[field] {
                self.init(code: .invalidField, field: field, message: "\(field) must be one of \(allowed.joined(separator: ", "))")
                return
            }
            self.init(code: field == nil ? .invalidJSON : .invalidField, field: field,
                      message: field == nil ? "the body is not valid JSON" : "\(field!) is not valid: \(context.debugDescription)")
        @unknown default:
            self.init(code: .invalidJSON, field: nil, message: "the body could not be read")
        }
    }

    /// The values of the body's enumerated fields, as the shared types define them.
    private static let allowedValues: [String: [String]] = [
        "googleAdsChoice": GoogleAdsChoice.allCases.map(\.rawValue),
        "kind": ConsentRecord.Kind.allCases.map(\.rawValue),
        "proof.platform": ConsentProof.Platform.allCases.map(\.rawValue),
        "proof.method": ConsentProof.Method.allCases.map(\.rawValue),
    ]

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "a boolean"
        case is [Any].Type: "an array"
        case is PreferenceValue.Type: "a boolean, an integer or a string"
        default: "an object"
        }
    }

    /// `field: message`, or the message alone.
    public var description: String { message }
}

/// `ConsentEventRequest` as the server reads it: a field the shared type does not define, at the
/// top or in `proof`, is refused (by name) before anything else is read.
private struct StrictConsentEventRequest: Decodable {
    let request: ConsentEventRequest

    init(from decoder: any Decoder) throws {
        try refuseUnknownKeys(in: decoder, known: ConsentEventRequest.fieldNames)
        let container = try decoder.container(keyedBy: AnyKey.self)
        let proofKey = AnyKey(stringValue: ConsentRecord.CodingKeys.proof.rawValue)
        if let proof = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: proofKey) {
            try refuseUnknownKeys(proof.allKeys, known: ConsentProof.CodingKeys.allCases.map(\.rawValue), prefix: proofKey.stringValue)
        }
        let usChoiceKey = AnyKey(stringValue: ConsentRecord.CodingKeys.usChoice.rawValue)
        if let usChoice = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: usChoiceKey) {
            try refuseUnknownKeys(usChoice.allKeys, known: USChoiceRecord.CodingKeys.allCases.map(\.rawValue), prefix: usChoiceKey.stringValue)
        }
        let subjectKey = AnyKey(stringValue: ConsentEventRequest.CodingKeys.subject.rawValue)
        if let subject = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: subjectKey) {
            try refuseUnknownKeys(subject.allKeys, known: SubjectInformation.CodingKeys.allCases.map(\.rawValue), prefix: subjectKey.stringValue)
        }
        let noticesKey = AnyKey(stringValue: ConsentRecord.CodingKeys.legalNotices.rawValue)
        if var notices = try? container.nestedUnkeyedContainer(forKey: noticesKey) {
            while !notices.isAtEnd {
                let index = notices.currentIndex
                guard let notice = try? notices.nestedContainer(keyedBy: AnyKey.self) else { break }
                try refuseUnknownKeys(notice.allKeys, known: LegalNotice.CodingKeys.allCases.map(\.rawValue), prefix: "\(noticesKey.stringValue)[\(index)]")
            }
        }
        request = try ConsentEventRequest(from: decoder)
    }
}

extension CheckedConsentEvent {
    /// Checks every field of a decoded request; `now` bounds `collectedAt`.
    public init(checking request: ConsentEventRequest, now: Date = Date()) throws(InvalidField) {
        guard let uuid = UUID(uuidString: request.eventId) else {
            throw InvalidField(code: .invalidField, field: "eventId", message: "eventId must be a UUID (8-4-4-4-12 hexadecimal digits)")
        }
        if let subjectId = request.subjectId {
            try checkLength(subjectId, field: "subjectId", max: 256)
            try checkPrintable(subjectId, field: "subjectId")
        }
        let collectedAt = request.collectedAt
        guard let collectedTime = ISO8601.parse(collectedAt) else {
            throw InvalidField(code: .invalidField, field: "collectedAt",
                               message: "collectedAt must be an ISO 8601 date-time with a time zone, such as 2026-11-23T10:15:30.250Z")
        }
        let collected = collectedTime.date
        if collected > now.addingTimeInterval(Self.allowedClockSkew) {
            throw InvalidField(code: .invalidField, field: "collectedAt",
                               message: "collectedAt \(collectedAt) lies more than 10 minutes after the server's clock (\(ISO8601.format(now)))")
        }
        if collected < Self.earliestCollectedAt {
            throw InvalidField(code: .invalidField, field: "collectedAt", message: "collectedAt must not be before 2018-05-25")
        }
        var consent = request.consent
        if let tcString = consent.tcString {
            try checkLength(tcString, field: "tcString", max: Self.maxStringLength)
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
        if let consentStringV1 = consent.consentStringV1 {
            try checkLength(consentStringV1, field: "consentStringV1", max: Self.maxStringLength)
            do {
                _ = try ConsentStringV1(decoding: consentStringV1)
            } catch {
                throw InvalidField(code: .invalidConsentString, field: "consentStringV1", message: "consentStringV1 does not decode: \(error)")
            }
        }
        if let gppString = consent.gppString {
            try checkLength(gppString, field: "gppString", max: Self.maxStringLength)
            do {
                _ = try GPPString(decoding: gppString)
            } catch {
                throw InvalidField(code: .invalidConsentString, field: "gppString", message: "gppString does not decode: \(error)")
            }
        }
        if let additionalConsent = consent.additionalConsent {
            try checkLength(additionalConsent, field: "additionalConsent", max: Self.maxStringLength)
            guard AdditionalConsent.isWellFormed(additionalConsent) else {
                throw InvalidField(code: .invalidConsentString, field: "additionalConsent",
                                   message: "additionalConsent must be 2~consented ids~dv.disclosed ids (such as 2~1.35.41~dv.9.21) "
                                   + "or 1~consented ids, ids being decimal numbers from 1 to 2147483647")
            }
        }
        let lists: [(String, WritableKeyPath<ConsentRecord, [Int]?>)] = [
            ("purposeConsents", \.purposeConsents), ("purposeLegitimateInterests", \.purposeLegitimateInterests),
            ("specialFeatureOptins", \.specialFeatureOptins), ("vendorConsents", \.vendorConsents),
            ("vendorLegitimateInterests", \.vendorLegitimateInterests),
        ]
        var anyList = false
        for (field, keyPath) in lists {
            guard let ids = consent[keyPath: keyPath] else { continue }
            let maxId = Self.maxIds[field]!
            for (index, id) in ids.enumerated() where !(1...maxId).contains(id) {
                throw InvalidField(code: .invalidField, field: "\(field)[\(index)]", message: "\(field)[\(index)] is \(id); its ids run from 1 to \(maxId)")
            }
            consent[keyPath: keyPath] = Array(Set(ids)).sorted()
            anyList = true
        }
        let anyConsent = consent.tcString != nil || consent.consentStringV1 != nil || consent.gppString != nil || consent.googleAdsChoice != nil
            || consent.additionalConsent != nil || consent.usChoice != nil || anyList
        // A withdrawal (withdrawal, underAge) takes the decision back: it carries no consent.
        if consent.proof.method.isWithdrawal {
            guard !anyConsent, consent.preferences == nil else {
                throw InvalidField(code: .invalidField, field: "proof.method",
                                   message: "an event with proof.method \(consent.proof.method.rawValue) takes the decision back and carries no consent: "
                                   + "leave out tcString, consentStringV1, gppString, googleAdsChoice, additionalConsent, usChoice, the id lists and preferences")
            }
        } else if !anyConsent {
            // Preferences ride with a decision: the newest event is the subject's decision
            // (docs/decisions/0003), so one of preferences alone would take it away.
            throw InvalidField(code: .missingField, field: nil,
                               message: "an event needs at least one of tcString, consentStringV1, gppString, googleAdsChoice, additionalConsent, usChoice or an id list, "
                               + "preferences included (or proof.method withdrawal or underAge, which carries none)")
        }
        try Self.checkKind(of: consent)
        try Self.check(consent.proof)
        try Self.checkRecordFields(of: consent)
        if let subject = request.subject { try Self.check(subject) }
        self.init(eventId: uuid.uuidString.lowercased(), subjectId: request.subjectId,
                  collectedAtMilliseconds: collectedTime.milliseconds, consent: consent, subject: request.subject)
    }

    /// A US choice (kind `us`, decision record 0035) carries its values and at most a GPP string,
    /// no TCF field; its withdrawal carries neither. `usChoice` belongs to a US choice only.
    private static func checkKind(of consent: ConsentRecord) throws(InvalidField) {
        guard consent.recordKind == .us else {
            if consent.usChoice != nil {
                throw InvalidField(code: .invalidField, field: "usChoice", message: "usChoice belongs to an event of kind us")
            }
            return
        }
        let tcfFields: [(String, Bool)] = [
            ("tcString", consent.tcString != nil), ("consentStringV1", consent.consentStringV1 != nil),
            ("googleAdsChoice", consent.googleAdsChoice != nil), ("additionalConsent", consent.additionalConsent != nil),
            ("purposeConsents", consent.purposeConsents != nil), ("purposeLegitimateInterests", consent.purposeLegitimateInterests != nil),
            ("specialFeatureOptins", consent.specialFeatureOptins != nil), ("vendorConsents", consent.vendorConsents != nil),
            ("vendorLegitimateInterests", consent.vendorLegitimateInterests != nil), ("preferences", consent.preferences != nil),
        ]
        if let field = tcfFields.first(where: \.1)?.0 {
            throw InvalidField(code: .invalidField, field: field,
                               message: "an event of kind us is a US privacy choice: leave out \(field) (a TCF decision is its own event)")
        }
        if !consent.proof.method.isWithdrawal && consent.usChoice == nil {
            throw InvalidField(code: .missingField, field: "usChoice", message: "an event of kind us needs usChoice (its opt-outs)")
        }
    }

    private static func check(_ proof: ConsentProof) throws(InvalidField) {
        for (value, field, max) in [(proof.noticeId, "proof.noticeId", 200), (proof.noticeVersion, "proof.noticeVersion", 100),
                                    (proof.sdkVersion, "proof.sdkVersion", 100)] {
            try checkLength(value, field: field, max: max)
            try checkPrintable(value, field: field)
        }
        // BCP 47 in the form consent notices use: a 2-3 letter language, then subtags of 1-8
        // letters or digits (pt-BR, zh-Hant-TW, es-419).
        let subtags = proof.language.split(separator: "-", omittingEmptySubsequences: false)
        let isLanguage = proof.language.utf8.count <= 35
            && (2...3).contains(subtags[0].count) && subtags[0].allSatisfy({ $0.isASCII && $0.isLetter })
            && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard isLanguage else {
            throw InvalidField(code: .invalidField, field: "proof.language", message: "proof.language must be a BCP 47 language tag such as de or pt-BR")
        }
    }
}

private func checkLength(_ value: String, field: String, max: Int) throws(InvalidField) {
    let count = value.utf8.count
    guard count >= 1, count <= max else {
        throw InvalidField(code: .invalidField, field: field, message: "\(field) must be 1 to \(max) bytes long, not \(count)")
    }
}

/// Refuses control characters (NUL, ESC, DEL and the rest of C0 and C1), Unicode format
/// characters (category Cf: U+202E right-to-left override, U+200B zero width space, U+FEFF, …)
/// and the line and paragraph separators U+2028 and U+2029: no id or version needs them, and
/// they break logs, terminals and exports or make one id look like another.
func checkPrintable(_ value: String, field: String) throws(InvalidField) {
    if let bad = value.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        throw InvalidField(code: .invalidField, field: field,
                           message: "\(field) holds the control character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4))")
    }
    if let bad = value.unicodeScalars.first(where: { [.format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) {
        throw InvalidField(code: .invalidField, field: field,
                           message: "\(field) holds the invisible formatting character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4))")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
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
    try refuseUnknownKeys(container.allKeys, known: known, prefix: decoder.codingPath.map(\.stringValue).joined(separator: "."))
}

/// Refuses the first of `keys` (in name order) outside `known`, naming it under `prefix`.
private func refuseUnknownKeys(_ keys: [AnyKey], known: [String], prefix: String) throws(InvalidField) {
    let unknown = keys.map(\.stringValue).filter { !known.contains($0) }.sorted()
    if let first = unknown.first {
        let field = prefix.isEmpty ? first : "\(prefix).\(first)"
        throw InvalidField(code: .invalidField, field: field,
                           message: "\(first.isEmpty ? "the key \"\"" : field) is not a field of this object")
    }
}

extension CheckedConsentEvent {
    /// Whether `string` is an Additional Consent string as `additionalConsent` must be: Google's
    /// shape, ids decimal from 1 to 2147483647 without leading zeros.
    public static func isWellFormedAdditionalConsent(_ string: String) -> Bool {
        AdditionalConsent.isWellFormed(string)
    }
}

/// Google's Additional Consent string: version 2 is `2~consented ids~dv.disclosed ids`, version 1
/// `1~consented ids`; ids are dot-separated decimal numbers (either list may be empty).
enum AdditionalConsent {
    /// The largest provider id accepted: ids are 32-bit signed integers in Google's list.
    static let maxId = 2_147_483_647

    static func isWellFormed(_ string: String) -> Bool {
        let parts = string.split(separator: "~", omittingEmptySubsequences: false)
        func ids(_ part: Substring) -> Bool {
            part.isEmpty || part.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { id in
                // Digits only: Int("+5") would read a sign; no leading zero, so that one id has
                // one spelling (00089 is 89).
                (1...10).contains(id.count) && id.utf8.allSatisfy { (0x30...0x39).contains($0) } && id.first != "0"
                    && Int(id).map { (1...maxId).contains($0) } == true
            }
        }
        switch parts.first {
        case "1": return parts.count == 2 && ids(parts[1])
        case "2":
            guard parts.count == 3, parts[2] == "dv" || parts[2].hasPrefix("dv.") else { return false }
            return ids(parts[1]) && ids(parts[2].dropFirst(parts[2] == "dv" ? 2 : 3))
        default: return false
        }
    }
}
