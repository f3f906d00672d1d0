import ConsentdAPI

/// Compact JSON written by hand for the append and read paths, where Foundation's `JSONEncoder`
/// was the largest cost (a profile of the append load put 16 % of all samples in it).
///
/// Callers write keys in sorted order, so the output is canonical and what `JSONDecoder` reads
/// back into the `Codable` types (`ConsentRecord`, `SubjectState`, ...).
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func integers(_ values: [Int]) {
        separate()
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: String(value).utf8)
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Text that is already JSON (a stored record), written as it is.
    mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

extension ConsentRecord {
    /// The record as canonical JSON (keys sorted, absent fields left out).
    var canonicalJSON: String {
        var json = JSONText()
        write(to: &json)
        return json.text
    }

    func write(to json: inout JSONText) {
        json.beginObject()
        if let additionalConsent { json.key("additionalConsent"); json.string(additionalConsent) }
        if let consentStringV1 { json.key("consentStringV1"); json.string(consentStringV1) }
        if let googleAdsChoice { json.key("googleAdsChoice"); json.string(googleAdsChoice.rawValue) }
        json.key("proof")
        json.beginObject()
        json.key("language"); json.string(proof.language)
        json.key("method"); json.string(proof.method.rawValue)
        json.key("noticeId"); json.string(proof.noticeId)
        json.key("noticeVersion"); json.string(proof.noticeVersion)
        json.key("platform"); json.string(proof.platform.rawValue)
        json.key("sdkVersion"); json.string(proof.sdkVersion)
        json.endObject()
        if let purposeConsents { json.key("purposeConsents"); json.integers(purposeConsents) }
        if let purposeLegitimateInterests { json.key("purposeLegitimateInterests"); json.integers(purposeLegitimateInterests) }
        if let specialFeatureOptins { json.key("specialFeatureOptins"); json.integers(specialFeatureOptins) }
        if let tcString { json.key("tcString"); json.string(tcString) }
        if let vendorConsents { json.key("vendorConsents"); json.integers(vendorConsents) }
        if let vendorLegitimateInterests { json.key("vendorLegitimateInterests"); json.integers(vendorLegitimateInterests) }
        json.endObject()
    }
}

extension SubjectState {
    /// A state as the API answers it, with the consent already in JSON.
    static func write(subjectId: String, eventId: String, collectedAt: Int64, receivedAt: Int64, consentJSON: String,
                      to json: inout JSONText) {
        json.beginObject()
        json.key("collectedAt"); json.string(Timestamps.format(milliseconds: collectedAt))
        json.key("consent"); json.raw(consentJSON)
        json.key("eventId"); json.string(eventId)
        json.key("receivedAt"); json.string(Timestamps.format(milliseconds: receivedAt))
        json.key("subjectId"); json.string(subjectId)
        json.endObject()
    }
}
