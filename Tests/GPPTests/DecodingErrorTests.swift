import Testing
import GPP

/// Bad input gets a typed error that says what and where, never a crash or a default value.
@Suite struct DecodingErrorTests {
    static func error(_ text: String) -> GPPDecodingError? {
        do {
            _ = try GPPString(decoding: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func an_empty_string_is_an_error() {
        #expect(Self.error("")?.reason == .empty)
    }

    @Test func a_bare_TC_string_gets_its_own_error() {
        #expect(Self.error("CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")?.reason == .bareTCString)
        #expect(Self.error("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")?.reason == .bareTCString)
    }

    @Test func a_header_that_is_not_type_3_version_1_fails_at_once() {
        #expect(Self.error("EBABM~x")?.reason == .invalidHeader(type: 4, version: 1))
        #expect(Self.error("DCABM~x")?.reason == .invalidHeader(type: 3, version: 2))
        #expect(Self.error("helloworld")?.reason == .invalidHeader(type: 33, version: 30))
    }

    @Test func a_section_count_that_differs_from_the_header_is_an_error() {
        #expect(Self.error("DBABM")?.reason == .sectionCountMismatch(header: 1, found: 0))
        #expect(Self.error("DBABL~BVQqAAAAAg~1YNN")?.reason == .sectionCountMismatch(header: 1, found: 2))
    }

    @Test func an_empty_section_is_an_error_naming_the_section() {
        let error = Self.error("DBABL~")
        #expect(error?.reason == .emptySection)
        #expect(error?.sectionId == 7)
        #expect(error?.sectionPrefix == "usnat")
        #expect(Self.error("DBABL~BVQqAAAAAg.")?.reason == .emptySection)
    }

    @Test func a_character_outside_base64url_is_named_with_its_offset() {
        let error = Self.error("DBABL~BVQq*AAAAg")
        #expect(error?.reason == .invalidCharacter("*"))
        #expect(error?.sectionId == 7)
        #expect(error?.bitOffset == 24)
    }

    @Test func a_truncated_section_names_the_field_and_bit() {
        let error = Self.error("DBABL~BVQ")
        #expect(error?.reason == .truncated(needed: 2, available: 0))
        #expect(error?.field == "SaleOptOut")
        #expect(error?.bitOffset == 18)
        #expect(error?.description == "truncated: needs 2 bits, 0 left in section 7 (usnat), field SaleOptOut at bit 18 of part 0")
    }

    @Test func a_truncated_header_names_its_field() {
        let error = Self.error("D")
        #expect(error?.reason == .truncated(needed: 6, available: 0))
        #expect(error?.field == "Version")
        #expect(error?.sectionId == nil)
        #expect(Self.error("DBA")?.field == "Sections")
    }

    @Test func an_unknown_sub_section_type_is_an_error() {
        let error = Self.error("DBABL~BVQqAAAAAg.w")
        #expect(error?.reason == .invalidSubsection(3))
        #expect(error?.subsection == 1)
        #expect(Self.error("DBABL~BVQqAAAAAg.Y.Y")?.reason == .invalidSubsection(1))
    }

    @Test func a_US_privacy_string_must_be_four_valid_characters() throws {
        let header = try GPPString(sections: [.uspv1(USPrivacyV1(notice: .yes, optOutSale: .no, lspaCovered: .no))])
            .encoded().prefix { $0 != "~" }
        #expect(try GPPString(decoding: header + "~1YNN").uspv1 == USPrivacyV1(notice: .yes, optOutSale: .no, lspaCovered: .no))
        #expect(Self.error(header + "~1YXN")?.reason == .invalidCharacter("X"))
        #expect(Self.error(header + "~1YXN")?.field == "OptOutSale")
        #expect(Self.error(header + "~2YNN")?.reason == .invalidValue(2))
        #expect(Self.error(header + "~1YN")?.reason == .truncated(needed: 24, available: 18))
    }

    @Test func the_embedded_TC_strings_errors_carry_the_section() {
        let error = Self.error("DBABM~CPXxRfAPXxRfAAfKABENB-Cg")
        #expect(error?.sectionId == 2)
        #expect(error?.sectionPrefix == "tcfeuv2")
        if case .truncated = error?.reason {} else { Issue.record("expected truncation, got \(String(describing: error))") }
    }

    @Test func a_fibonacci_id_beyond_65535_is_an_error() {
        // One single id whose Fibonacci code runs on without its terminator.
        let endless: String = "000011 000001 000000000001 0" + String(repeating: "01", count: 20)
        #expect(Self.error(bits(endless))?.reason == .idOutOfRange(3_524_577))
    }

    @Test func garbage_never_crashes() {
        for text in ["~", "~~~", "D~~", "DBABM~~", "DBAB.M", "DBABM~C", "DBACNY~~", "D=====", "DBABL~A", "DBABL~BVQqAAAAAg.__"] {
            #expect(Self.error(text) != nil, "\(text)")
        }
    }
}
