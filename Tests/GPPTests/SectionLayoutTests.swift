import Testing
import GPP

/// Each US section's core, field by field, as its spec's table lists it (name and type, copied
/// by hand from `Sections/US-National/…` and `Sections/US-States/*/…`): the encoder must write
/// exactly those bits in that order, and the decoder read them back.
@Suite struct SectionLayoutTests {
    static let mspa = ["MspaCoveredTransaction:2", "MspaOptOutOptionMode:2", "MspaServiceProviderMode:2"]
    static let processing = ["Version:6", "ProcessingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2",
                             "SaleOptOut:2", "TargetedAdvertisingOptOut:2"]
    static let mspaMode = ["MspaVersion:6", "MspaCoveredTransaction:2", "MspaMode:2", "ProcessingNotice:2", "SaleOptOutNotice:2",
                           "TargetedAdvertisingOptOutNotice:2", "SaleOptOut:2", "TargetedAdvertisingOptOut:2"]

    /// `Name:bits` for Int(n), `Name:list n` for N-Bitfield(2, n).
    static let cores: [GPPSectionID: [String]] = [
        .usnat: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "SharingOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2",
                 "SensitiveDataProcessingOptOutNotice:2", "SensitiveDataLimitUseNotice:2", "SaleOptOut:2", "SharingOptOut:2",
                 "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 16", "KnownChildSensitiveDataConsents:list 3",
                 "PersonalDataConsents:2"] + mspa,
        .usca: ["Version:6", "SaleOptOutNotice:2", "SharingOptOutNotice:2", "SensitiveDataLimitUseNotice:2", "SaleOptOut:2",
                "SharingOptOut:2", "SensitiveDataProcessing:list 9", "KnownChildSensitiveDataConsents:list 2",
                "PersonalDataConsents:2"] + mspa,
        .usva: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2", "SaleOptOut:2",
                "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:2"] + mspa,
        .usco: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2", "SaleOptOut:2",
                "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 7", "KnownChildSensitiveDataConsents:2"] + mspa,
        .usut: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2",
                "SensitiveDataProcessingOptOutNotice:2", "SaleOptOut:2", "TargetedAdvertisingOptOut:2",
                "SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:2"] + mspa,
        .usct: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2", "SaleOptOut:2",
                "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:list 3"] + mspa,
        .usfl: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:list 3",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usmt: ["Version:6", "SharingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2", "SaleOptOut:2",
                "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:list 3",
                "AdditionalDataProcessingConsent:2"] + mspa,
        .usor: processing + ["SensitiveDataProcessing:list 11", "KnownChildSensitiveDataConsents:list 3",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .ustx: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:2",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usde: processing + ["SensitiveDataProcessing:list 9", "KnownChildSensitiveDataConsents:list 5",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usia: ["Version:6", "ProcessingNotice:2", "SaleOptOutNotice:2", "TargetedAdvertisingOptOutNotice:2",
                "SensitiveDataOptOutNotice:2", "SaleOptOut:2", "TargetedAdvertisingOptOut:2", "SensitiveDataProcessing:list 8",
                "KnownChildSensitiveDataConsents:2"] + mspa,
        .usne: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:2",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usnh: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:list 3",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usnj: processing + ["SensitiveDataProcessing:list 10", "KnownChildSensitiveDataConsents:list 5",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .ustn: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsent:2",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usmn: processing + ["SensitiveDataProcessing:list 8", "KnownChildSensitiveDataConsents:2",
                             "AdditionalDataProcessingConsent:2"] + mspa,
        .usmd: mspaMode + ["AdditionalDataProcessingConsent:2"],
        .usin: mspaMode + ["KnownChildSensitiveDataConsents:2", "AdditionalDataProcessingConsent:2"],
        .usky: mspaMode + ["KnownChildSensitiveDataConsents:2", "AdditionalDataProcessingConsent:2"],
        .usri: mspaMode + ["KnownChildSensitiveDataConsents:2", "AdditionalDataProcessingConsent:2"],
    ]

    @Test func every_US_section_is_in_the_table() {
        #expect(Set(Self.cores.keys) == Set(GPPSectionID.allCases.filter(\.isUS)))
    }

    @Test(arguments: GPPSectionID.allCases.filter(\.isUS))
    func the_core_is_written_field_by_field_as_the_spec_lists_it(_ id: GPPSectionID) throws {
        var section = try #require(USSection(id))
        section.sectionHeaderVersion = nil
        var expected = ""
        for (index, entry) in try #require(Self.cores[id]).enumerated() {
            let parts = entry.split(separator: ":")
            let field = try #require(USField(rawValue: String(parts[0])), "\(entry)")
            // 1 or 2 in turn (1 for the covered transaction); the six-bit versions 5.
            if parts[1].hasPrefix("list ") {
                let count = Int(parts[1].dropFirst(5))!
                let values = (0..<count).map { ($0 + index) % 2 + 1 }
                section[list: field] = values
                expected += values.map { $0 == 1 ? "01" : "10" }.joined()
            } else {
                let width = Int(parts[1])!
                let value = width == 6 ? 5 : (field == .mspaCoveredTransaction ? 1 : index % 2 + 1)
                section[field] = value
                expected += String(String(value, radix: 2).reversed()).padding(toLength: width, withPad: "0", startingAt: 0).reversed()
            }
        }
        let core = try section.encoded()
        #expect(bitString(Substring(core)).hasPrefix(expected), "\(id)")
        #expect(bitString(Substring(core)).count - expected.count < 6, "\(id): no field beyond the spec's")
        let decoded = try GPPString(decoding: try GPPString(sections: [.us(section)]).encoded()).us(id)
        #expect(decoded == section)
    }
}
