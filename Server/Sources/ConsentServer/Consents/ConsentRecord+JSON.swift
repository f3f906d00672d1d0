import ConsentdAPI
import ConsentKitFormats

// consentd's records and answers are written by hand (Foundation's `JSONEncoder` was 16 % of all
// samples of the append load), with keys in sorted order so that the output is canonical and
// what `JSONDecoder` reads back into the `Codable` types. Escaping is `.standard`: a stored
// record is hashed, so the same consent must always give the same bytes.

extension ConsentRecord {
    /// The record as canonical JSON (keys sorted, absent fields left out).
    var canonicalJSON: String {
        var json = JSONWriter(capacity: 512, escaping: .standard)
        write(to: &json)
        return json.text
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        if let additionalConsent { json.key("additionalConsent"); json.string(additionalConsent) }
        if let consentStringV1 { json.key("consentStringV1"); json.string(consentStringV1) }
        if let googleAdsChoice { json.key("googleAdsChoice"); json.string(googleAdsChoice.rawValue) }
        if let gppString { json.key("gppString"); json.string(gppString) }
        if let kind { json.key("kind"); json.string(kind.rawValue) }
        if let legalNotices {
            json.key("legalNotices")
            json.beginArray()
            for notice in legalNotices {
                json.beginObject()
                json.key("identifier"); json.string(notice.identifier)
                json.key("version"); json.string(notice.version)
                json.endObject()
            }
            json.endArray()
        }
        if let preferences { json.key("preferences"); Self.write(preferences, to: &json) }
        json.key("proof")
        json.beginObject()
        if let documentHash = proof.documentHash { json.key("documentHash"); json.string(documentHash) }
        json.key("language"); json.string(proof.language)
        json.key("method"); json.string(proof.method.rawValue)
        json.key("noticeId"); json.string(proof.noticeId)
        json.key("noticeVersion"); json.string(proof.noticeVersion)
        json.key("platform"); json.string(proof.platform.rawValue)
        json.key("sdkVersion"); json.string(proof.sdkVersion)
        json.endObject()
        if let purposeConsents { json.field("purposeConsents", purposeConsents) }
        if let purposeLegitimateInterests { json.field("purposeLegitimateInterests", purposeLegitimateInterests) }
        if let specialFeatureOptins { json.field("specialFeatureOptins", specialFeatureOptins) }
        if let tcString { json.key("tcString"); json.string(tcString) }
        if let usChoice { json.key("usChoice"); usChoice.write(to: &json) }
        if let vendorConsents { json.field("vendorConsents", vendorConsents) }
        if let vendorLegitimateInterests { json.field("vendorLegitimateInterests", vendorLegitimateInterests) }
        json.endObject()
    }

    /// `preferences` as an object, its keys in code-point order (so that the same values always
    /// make the same text).
    static func write(_ preferences: [String: PreferenceValue], to json: inout JSONWriter) {
        json.beginObject()
        for (key, value) in preferences.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }) {
            switch value {
            case .bool(let flag): json.field(key, flag)
            case .integer(let integer): json.field(key, integer)
            case .string(let text): json.field(key, text)
            }
        }
        json.endObject()
    }
}

extension SubjectState {
    /// A state as the API answers it, with the consent already in JSON.
    static func write(subjectId: String, eventId: String, collectedAt: Int64, receivedAt: Int64, consentJSON: String,
                      to json: inout JSONWriter) {
        json.beginObject()
        writeFields(subjectId: subjectId, eventId: eventId, collectedAt: collectedAt, receivedAt: receivedAt, consentJSON: consentJSON,
                    others: [], to: &json)
        json.endObject()
    }

    /// A subject's state from the current rows of its kinds (decision record 0035): the TCF
    /// decision's row as the state (else the first row), the others, in kind order, as
    /// `otherKinds` (left out when there are none). Nothing is written for no rows.
    static func write(subjectId: String, rows: [ConsentStore.CurrentRow], to json: inout JSONWriter) {
        func order(_ row: ConsentStore.CurrentRow) -> (Int, String) { (row.kind == ConsentRecord.Kind.tcf.rawValue ? 0 : 1, row.kind) }
        let sorted = rows.sorted { order($0) < order($1) }
        guard let first = sorted.first else { return }
        json.beginObject()
        writeFields(subjectId: subjectId, eventId: first.eventId, collectedAt: first.collectedAt, receivedAt: first.receivedAt,
                    consentJSON: first.consentJSON, others: Array(sorted.dropFirst()), to: &json)
        json.endObject()
    }

    private static func writeFields(subjectId: String, eventId: String, collectedAt: Int64, receivedAt: Int64, consentJSON: String,
                                    others: [ConsentStore.CurrentRow], to json: inout JSONWriter) {
        json.key("collectedAt"); json.string(ISO8601.format(milliseconds: collectedAt))
        json.key("consent"); json.raw(consentJSON)
        json.key("eventId"); json.string(eventId)
        if !others.isEmpty {
            json.key("otherKinds")
            json.beginArray()
            for other in others {
                write(subjectId: subjectId, eventId: other.eventId, collectedAt: other.collectedAt, receivedAt: other.receivedAt,
                      consentJSON: other.consentJSON, to: &json)
            }
            json.endArray()
        }
        json.key("receivedAt"); json.string(ISO8601.format(milliseconds: receivedAt))
        json.key("subjectId"); json.string(subjectId)
    }
}

extension USChoiceRecord {
    /// The US choice as a JSON object, keys sorted: in a stored record, and in the web's choice
    /// answer (the visitor's own, decision record 0046).
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("saleOptOut", saleOptOut)
        json.field("sensitiveDataLimited", sensitiveDataLimited)
        json.field("sharingOptOut", sharingOptOut)
        json.field("targetedAdvertisingOptOut", targetedAdvertisingOptOut)
        json.endObject()
    }
}
