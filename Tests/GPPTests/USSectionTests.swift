import Testing
@testable import GPP

/// The US sections, read from bit strings written by hand from the section specs' tables.
@Suite struct USSectionTests {
    /// usnat v2 layout: Version 1; notices 1 1 2 0 1 2; opt-outs 1 2 0; 16 sensitive categories
    /// (1, 2, 0 × 13, 2); known child 1 2 0; PersonalDataConsents 2; MSPA 1 1 2; then GPC true.
    static let usnatVersion2Core: String = {
        let fields: String = "000001 01 01 10 00 01 10 01 10 00 "
        let sensitive: String = "01 10" + String(repeating: "00", count: 13) + "10 "
        return bits(fields + sensitive + "01 10 00 " + "10 01 01 10")
    }()
    static let gpcTrue = bits("01 1")

    @Test func usnat_in_the_v2_layout_reads_every_field_typed() throws {
        let gpp = try GPPString(decoding: "DBABL~" + Self.usnatVersion2Core + "." + Self.gpcTrue)
        let usnat = try #require(gpp.usnat)
        #expect(usnat.layout === USSectionLayout.usnat)
        #expect(usnat.version == 1)
        #expect(usnat.sharingNotice == .provided)
        #expect(usnat.saleOptOutNotice == .provided)
        #expect(usnat.sharingOptOutNotice == .notProvided)
        #expect(usnat.targetedAdvertisingOptOutNotice == .notApplicable)
        #expect(usnat.sensitiveDataProcessingOptOutNotice == .provided)
        #expect(usnat.sensitiveDataLimitUseNotice == .notProvided)
        #expect(usnat.saleOptOut == .optedOut)
        #expect(usnat.sharingOptOut == .didNotOptOut)
        #expect(usnat.targetedAdvertisingOptOut == .notApplicable)
        let sensitive: [Int] = [1, 2] + Array(repeating: 0, count: 13) + [2]
        #expect(usnat[list: .sensitiveDataProcessing] == sensitive)
        #expect(usnat.sensitiveDataConsents?.prefix(2) == [.noConsent, .consent])
        #expect(usnat.sensitiveDataOptOuts == nil)
        #expect(usnat.knownChildSensitiveDataConsents == [.noConsent, .consent, .notApplicable])
        #expect(usnat.personalDataConsents == .consent)
        #expect(usnat.mspaCoveredTransaction == .yes)
        #expect(usnat.mspaOptOutOptionMode == .yes)
        #expect(usnat.mspaServiceProviderMode == .no)
        #expect(usnat.gpc == true)
    }

    @Test func usnat_takes_its_layout_from_the_bit_length_not_the_version() throws {
        // Version 1 in both; 60 bits (Google UMP) is the v1 layout, 70 bits the v2 layout.
        let version1 = try #require(try GPPString(decoding: "DBABL~BVQqAAAAAg").usnat)
        #expect(version1.layout === USSectionLayout.usnatVersion1)
        #expect(version1[list: .sensitiveDataProcessing]?.count == 12)
        #expect(version1[list: .knownChildSensitiveDataConsents]?.count == 2)
        let version2 = try #require(try GPPString(decoding: "DBABL~" + Self.usnatVersion2Core).usnat)
        #expect(version2.version == 1)
        #expect(version2[list: .sensitiveDataProcessing]?.count == 16)
        #expect(version2.gpc == nil)
        // The v1 layout padded to bytes first (66 bits, 11 characters) is still v1.
        #expect(try GPPString(decoding: "DBABL~BVQqAAAAAgA").usnat?.layout === USSectionLayout.usnatVersion1)
    }

    @Test func usnat_in_the_v1_layout_stating_version_2_reads_as_version_2_padded_with_zeros() throws {
        // Version 2 in 60 bits (iabgpp-es 3.2.0's tests write it): the bits hold the v1 layout's 12 and 2
        // entries, the Version field names the v2 layout; the value is v2, its lists padded with zeros
        // (not applicable), as both IAB libraries read it. Entry 12 and known-child entry 2 set, to see
        // that each entry lands in its place.
        let string = "DBABL~" + bits("000010 01 01 01 01 00 00 10 10 10" + String(repeating: "00", count: 11) + "01 00 10 00 10 00 00")
        let usnat = try #require(try GPPString(decoding: string).usnat)
        #expect(usnat.version == 2)
        #expect(usnat.layout === USSectionLayout.usnat)
        #expect(usnat[list: .sensitiveDataProcessing] == Array(repeating: 0, count: 11) + [1, 0, 0, 0, 0])
        #expect(usnat[list: .knownChildSensitiveDataConsents] == [0, 2, 0])
        #expect(usnat.sharingNotice == .provided)
        #expect(usnat.targetedAdvertisingOptOut == .didNotOptOut)
        #expect(usnat.mspaCoveredTransaction == .no)
        // Re-encoded, it is the v2 layout it states, and reads back the same.
        let encoded = try GPPString(decoding: string).encoded()
        #expect(encoded != string)
        #expect(try GPPString(decoding: encoded).usnat == usnat)
        // Version 1 in the same 60 bits is Google UMP's true v1: 12 and 2, as the bits hold them.
        let version1 = "DBABL~" + bits("000001 01 01 01 01 00 00 10 10 10" + String(repeating: "00", count: 11) + "01 00 10 00 10 00 00")
        let v1 = try #require(try GPPString(decoding: version1).usnat)
        #expect(v1.layout === USSectionLayout.usnatVersion1)
        #expect(v1[list: .sensitiveDataProcessing]?.count == 12)
        #expect(try GPPString(decoding: version1).encoded() == version1)
    }

    @Test func google_UMPs_usnat_string_reads_as_the_spec_says() throws {
        // 000001 01 01 01 01 00 00 10 10 10, 12 + 2 zero entries, 00, MSPA 10 00 00.
        let usnat = try #require(try GPPString(decoding: "DBABL~BVQqAAAAAg").usnat)
        #expect(usnat.version == 1)
        #expect(usnat.sharingNotice == .provided)
        #expect(usnat.saleOptOutNotice == .provided)
        #expect(usnat.sharingOptOutNotice == .provided)
        #expect(usnat.targetedAdvertisingOptOutNotice == .provided)
        #expect(usnat.saleOptOut == .didNotOptOut)
        #expect(usnat.sharingOptOut == .didNotOptOut)
        #expect(usnat.targetedAdvertisingOptOut == .didNotOptOut)
        #expect(usnat.sensitiveDataConsents == Array(repeating: .notApplicable, count: 12))
        #expect(usnat.mspaCoveredTransaction == .no)
        #expect(try GPPString(decoding: "DBABL~BVQqAAAAAg").encoded() == "DBABL~BVQqAAAAAg")
    }

    @Test func California_sensitive_data_is_an_opt_out_to_limit_use() throws {
        // Version 1; notices 1 1 1; SaleOptOut 1, SharingOptOut 2; 9 categories, the first 1;
        // known child 1 2; PersonalDataConsents 0; MSPA 2 0 0.
        let sensitive: String = "01" + String(repeating: "00", count: 8)
        let core = bits("000001 01 01 01 01 10 " + sensitive + " 01 10 00 10 00 00")
        let header = try GPPString(sections: [.us(USSection(.usca)!)]).encoded().prefix { $0 != "~" }
        let usca = try #require(try GPPString(decoding: header + "~" + core).us(.usca))
        #expect(usca.saleOptOut == .optedOut)
        #expect(usca.sharingOptOut == .didNotOptOut)
        #expect(usca.sensitiveDataOptOuts?.first == .optedOut)
        #expect(usca.sensitiveDataConsents == nil)
        #expect(usca.knownChildSensitiveDataConsents == [.noConsent, .consent])
        #expect(usca.targetedAdvertisingOptOut == nil)
        #expect(usca.gpc == nil)
    }

    @Test func Utah_and_Iowa_sensitive_data_are_opt_outs_and_the_others_consents() {
        for id in GPPSectionID.allCases where id.isUS {
            let layout = USSectionLayout.current(for: id)!
            #expect(layout.sensitiveDataIsOptOut == [.usca, .usut, .usia].contains(id), "\(id)")
        }
    }

    @Test func Virginia_has_no_GPC_sub_section() throws {
        var usva = try #require(USSection(.usva))
        usva.saleOptOut = .optedOut
        let text = try GPPString(sections: [.us(usva)]).encoded()
        #expect(try GPPString(decoding: text).us(.usva)?.saleOptOut == .optedOut)
        #expect(throws: GPPDecodingError.self) { try GPPString(decoding: text + "." + Self.gpcTrue) }
    }

    /// Indiana in the spec's layout: section header (SectionID 25, Version 1, SubSections [1]),
    /// core (MspaVersion 1, covered 1, mode 2, notices 1 1 1, opt-outs 1 2, known child 0,
    /// additional 2), sensitive data (2 2 1 0 0 0 0 0).
    static let indianaHeader = bits("011001 000001 000000000001 0 11")
    static let indianaCore = bits("000001 01 10 01 01 01 01 10 00 10")
    static let indianaSensitive = bits("10 10 01 00 00 00 00 00")

    @Test func Indiana_decodes_with_the_specs_section_header_and_without_it() throws {
        let header = try GPPString(sections: [.us(USSection(.usin)!)]).encoded().prefix { $0 != "~" }
        let withHeader = try #require(
            try GPPString(decoding: header + "~" + [Self.indianaHeader, Self.indianaCore, Self.indianaSensitive].joined(separator: ".")).us(.usin))
        let without = try #require(try GPPString(decoding: header + "~" + Self.indianaCore + "." + Self.indianaSensitive).us(.usin))
        for usin in [withHeader, without] {
            #expect(usin.mspaVersion == 1)
            #expect(usin.mspaCoveredTransaction == .yes)
            #expect(usin.mspaMode == .serviceProviderMode)
            #expect(usin.processingNotice == .provided)
            #expect(usin.saleOptOut == .optedOut)
            #expect(usin.targetedAdvertisingOptOut == .didNotOptOut)
            #expect(usin.knownChildSensitiveDataConsents == [.notApplicable])
            #expect(usin.additionalDataProcessingConsent == .consent)
            #expect(usin.sensitiveDataConsents?.prefix(3) == [.consent, .consent, .noConsent])
        }
        #expect(withHeader.sectionHeaderVersion == 1)
        #expect(without.sectionHeaderVersion == nil)
        // Each is written back in the layout it was read in.
        #expect(try withHeader.encoded() == [Self.indianaHeader, Self.indianaCore, Self.indianaSensitive].joined(separator: "."))
        #expect(try without.encoded() == Self.indianaCore + "." + Self.indianaSensitive)
    }

    @Test func Maryland_decodes_with_and_without_the_section_header_and_its_GPC() throws {
        let sectionHeader = bits("011000 000001 000000000001 0 11")
        let core = bits("000001 01 01 01 01 01 10 10 00")
        let header = try GPPString(sections: [.us(USSection(.usmd)!)]).encoded().prefix { $0 != "~" }
        for text in [[sectionHeader, core, Self.gpcTrue], [core, Self.gpcTrue]] {
            let usmd = try #require(try GPPString(decoding: header + "~" + text.joined(separator: ".")).us(.usmd))
            #expect(usmd.mspaMode == .optOutOptionMode)
            #expect(usmd.saleOptOut == .didNotOptOut)
            #expect(usmd.additionalDataProcessingConsent == .notApplicable)
            #expect(usmd.sensitiveDataConsents == nil)
            #expect(usmd.gpc == true)
        }
    }

    @Test func every_US_section_encodes_and_decodes_its_values() throws {
        for layout in USSectionLayout.all {
            var section = USSection(layout: layout)
            // A distinct, valid value in every field.
            for (index, slot) in layout.slots.enumerated() {
                switch slot.type {
                case .integer(let bits):
                    section[slot.field] = slot.field == .mspaCoveredTransaction ? 1 : (bits == 2 ? index % 3 : index % 64)
                case .boolean: section[slot.field] = 1
                case .list(let count): section[list: slot.field] = (0..<count).map { ($0 + index) % 3 }
                }
            }
            let text = try GPPString(sections: [.us(section)]).encoded()
            #expect(try GPPString(decoding: text).us(layout.section) == section, "\(layout)")
        }
    }

    @Test func a_reserved_2_bit_value_decodes_but_does_not_encode() throws {
        var usnat = try #require(try GPPString(decoding: "DBABL~BVQqAAAAAg").usnat)
        usnat.saleOptOut = .reserved
        #expect(throws: GPPEncodingError(.outOfRange(value: 3, allowed: "0...2"), sectionId: 7, field: "SaleOptOut")) {
            try usnat.encoded()
        }
        let decoded = try #require(try GPPString(decoding: "DBABL~BVQ-AAAAAg").usnat)
        #expect(decoded.saleOptOut == .reserved)
    }

    @Test func a_covered_transaction_must_be_yes_or_no_to_encode() throws {
        var usnat = try #require(USSection(.usnat))
        #expect(usnat.mspaCoveredTransaction == .no)
        usnat.mspaCoveredTransaction = .notApplicable
        #expect(throws: GPPEncodingError.self) { try usnat.encoded() }
    }

    @Test func setting_gpc_adds_and_removes_the_sub_section() throws {
        var usca = try #require(USSection(.usca))
        usca.gpc = true
        #expect(try usca.encoded().hasSuffix("." + Self.gpcTrue))
        usca.gpc = nil
        #expect(try !usca.encoded().contains("."))
    }
}
