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
        json.key("proof")
        json.beginObject()
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
        if let vendorConsents { json.field("vendorConsents", vendorConsents) }
        if let vendorLegitimateInterests { json.field("vendorLegitimateInterests", vendorLegitimateInterests) }
        json.endObject()
    }
}

extension SubjectState {
    /// A state as the API answers it, with the consent already in JSON.
    static func write(subjectId: String, eventId: String, collectedAt: Int64, receivedAt: Int64, consentJSON: String,
                      to json: inout JSONWriter) {
        json.beginObject()
        json.key("collectedAt"); json.string(ISO8601.format(milliseconds: collectedAt))
        json.key("consent"); json.raw(consentJSON)
        json.key("eventId"); json.string(eventId)
        json.key("receivedAt"); json.string(ISO8601.format(milliseconds: receivedAt))
        json.key("subjectId"); json.string(subjectId)
        json.endObject()
    }
}
