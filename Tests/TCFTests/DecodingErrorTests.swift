import Testing
@testable import TCF

/// Structural problems throw a ``TCFDecodingError`` that names the field and the bit offset.
@Suite struct DecodingErrorTests {
    private func error(_ string: String) -> TCFDecodingError? {
        do {
            _ = try ConsentString(decoding: string)
            return nil
        } catch {
            return error
        }
    }

    @Test func anEmptyStringIsAnError() {
        #expect(error("")?.reason == .empty)
    }

    @Test func anEmptySegmentIsAnErrorNamingTheSegment() {
        let failure = error("\(SpecExampleTests.v2Core).")
        #expect(failure?.reason == .empty)
        #expect(failure?.segment == 1)
    }

    @Test func aCharacterOutsideBase64IsAnErrorAtItsPosition() {
        let failure = error("CQSbk4AQ!bk4")
        #expect(failure?.reason == .invalidCharacter("!"))
        #expect(failure?.bitOffset == 8 * 6)
    }

    @Test func anUnknownVersionIsAnError() {
        // "D" is 3 in the first six bits.
        #expect(error("DQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA")?.reason == .unsupportedVersion(3))
        #expect(error("AAAA")?.reason == .unsupportedVersion(0))
    }

    @Test func aTruncatedCoreSegmentNamesTheFieldItStoppedIn() {
        // 12 characters = 72 bits: Created and half of LastUpdated.
        let failure = error(String(SpecExampleTests.v2Core.prefix(12)))
        #expect(failure?.field == "LastUpdated")
        #expect(failure?.bitOffset == 42)
        #expect(failure?.reason == .truncated(needed: 36, available: 72 - 42))
    }

    @Test func aTruncatedBitfieldIsAnErrorNotConsent() throws {
        // MaxVendorId 640 with a bitfield cut short: the v1 SDK vectors' classic trap.
        let failure = try #require(error("BOMXuBxOMXuBxAABAENAAAAAAAAoAAA"))
        #expect(failure.field == "vendorConsents.BitField")
        #expect(failure.bitOffset == 173)
        #expect(failure.reason == .truncated(needed: 640, available: 184 - 173))
    }

    @Test func aRangeEntryBeyondMaxVendorIdIsAnError() throws {
        let failure = try #require(error("BOMexSfOMexSfAAABAENAA////ABSABgACBAAA"))
        #expect(failure.reason == .idOutOfRange(id: 512, maxVendorId: 20))
        #expect(failure.field == "vendorConsents.EndVendorId")
    }

    @Test func aRangeEndBeforeItsStartIsAnError() throws {
        var writer = BitWriter()
        writer.write(2, 6)
        for width in [36, 36, 12, 12, 6] { writer.write(0, width) }  // Created ... ConsentScreen
        writer.writeLetters("EN")
        writer.write(0, 12 + 6)
        writer.write(true)  // IsServiceSpecific
        for width in [1, 12, 24, 24, 1] { writer.write(0, width) }  // UseNonStandardTexts ... PurposeOneTreatment
        writer.writeLetters("AA")
        writer.write(10, 16)  // MaxVendorId
        writer.write(true)  // IsRangeEncoding
        writer.write(1, 12)  // NumEntries
        writer.write(true)  // IsARange
        writer.write(8, 16)
        writer.write(3, 16)
        let failure = try #require(error(writer.base64URL()))
        #expect(failure.reason == .rangeEndBeforeStart(start: 8, end: 3))
        #expect(failure.field == "vendorConsents.EndVendorId")
        #expect(failure.bitOffset == 213 + 16 + 1 + 12 + 1 + 16)
    }

    @Test func anUnknownSegmentTypeIsAnError() throws {
        // "g" = 100000: SegmentType 4.
        let failure = try #require(error("\(SpecExampleTests.v2Core).gAAA"))
        #expect(failure.reason == .invalidSegmentType(4))
        #expect(failure.segment == 1)
    }

    @Test func aRepeatedSegmentTypeIsAnError() throws {
        let failure = try #require(error("\(SpecExampleTests.v2Core).\(SpecExampleTests.v2Disclosed).\(SpecExampleTests.v2Disclosed)"))
        #expect(failure.reason == .duplicateSegment(1))
        #expect(failure.segment == 2)
    }

    @Test func aSecondCoreSegmentIsAnError() {
        #expect(error("\(SpecExampleTests.v2Core).\(SpecExampleTests.v2Core)")?.reason == .invalidSegmentType(0))
    }

    @Test func errorDescriptionsSayWhatAndWhere() throws {
        let failure = try #require(error("BOMXuBxOMXuBxAABAENAAAAAAAAoAAA"))
        #expect(failure.description == "truncated: needs 640 bits, 11 left in vendorConsents.BitField at bit 173 of segment 0")
    }

    @Test func everyPrefixOfARealStringFailsCleanlyOrDecodes() throws {
        // Truncating anywhere never crashes and never invents consent.
        let string = try Fixtures.realWorldStrings()[0]
        let full = try TCString(decoding: string)
        let core = string.prefix { $0 != "." }
        for length in 1..<core.count {
            if let value = try? TCString(decoding: String(core.prefix(length))) {
                #expect(value.vendorConsents.isSubset(of: full.vendorConsents))
            }
        }
    }
}

extension IDSet {
    /// Whether every id of this set is in `other`.
    func isSubset(of other: IDSet) -> Bool { allSatisfy(other.contains) }
}
