// The CMP API's form of a GPP string's sections (`__gpp`'s `parsedSections`): the JSON form's
// field names and values, but each section an array of its sub-sections, core first.

import ConsentKitFormats

extension GPPString {
    /// `parsedSections` of the GPP CMP API (`__gpp('ping')`), as compact JSON text: one key per
    /// section this module decodes, its API prefix, in string order; each value an array of
    /// sub-section objects, the core first (``jsonText()``'s field names and values). A US
    /// section's optional sub-sections follow as objects of their own, the GPC sub-section as
    /// `{"SubsectionType": 1, "Gpc": true}` (the usin/usky/usri sensitive-data sub-section, which
    /// has no type field, with its fields alone). The other sections are one object with their
    /// segments' fields merged in, as in the JSON form. Sections this module does not decode are
    /// left out: the API answers only the sections it supports.
    public func cmpAPIParsedSectionsJSON() -> String {
        var writer = JSONWriter(capacity: 1 << 12, escaping: .standard)
        writer.beginObject()
        for section in sections {
            let parts: [JSONValue]
            switch section {
            case .tcfeuv2(let value): parts = [value.jsonObject]
            case .tcfcav1(let value): parts = [value.jsonObject]
            case .uspv1(let value): parts = [value.jsonObject]
            case .us(let value): parts = value.subsectionObjects
            case .unknown: continue
            }
            guard let prefix = section.prefix else { continue }
            writer.key(prefix)
            JSONValue.array(parts).write(to: &writer)
        }
        writer.endObject()
        return writer.text
    }
}

extension USSection {
    /// The core's fields as one object, then one object per optional sub-section present (its
    /// `SubsectionType` first when the sub-section starts with one).
    var subsectionObjects: [JSONValue] {
        var parts: [JSONObject] = [JSONObject()]
        if let sectionHeaderVersion { parts[0].put(USField.version.rawValue, sectionHeaderVersion) }
        var partOfSubsection: [Int: Int] = [:]
        for slot in layout.slots where slot.subsection.map(isPresent(subsection:)) ?? true {
            var index = 0
            if let subsection = slot.subsection {
                if let existing = partOfSubsection[subsection] {
                    index = existing
                } else {
                    var object = JSONObject()
                    let description = layout.subsections[subsection]
                    if description.startsWithType { object.put("SubsectionType", description.id) }
                    parts.append(object)
                    index = parts.count - 1
                    partOfSubsection[subsection] = index
                }
            }
            if let list = self[list: slot.field] {
                parts[index].put(slot.field.rawValue, list)
            } else if slot.type == .boolean {
                parts[index].put(slot.field.rawValue, self[slot.field] == 1)
            } else if let value = self[slot.field] {
                parts[index].put(slot.field.rawValue, value)
            }
        }
        return parts.map { .object($0) }
    }
}
