import Foundation

/// TC strings written field by field, as the security review of 2026-11-26 wrote them (its
/// `tcenc.tc()`): any purpose id of the 6-bit field, vendor sections as ranges or bitfields, ids
/// up to 65,535. The encoder of `TCF` picks its own forms and refuses nothing valid, so these
/// are written here bit by bit.
enum HostileTCString {
    /// How a vendor section is written.
    enum Section {
        /// `IsRangeEncoding` 1: these ranges (a range of one id is written as a single id).
        case ranges([ClosedRange<Int>])
        /// `IsRangeEncoding` 0: a bitfield of every id from 1 to the largest, all set.
        case bitfield(max: Int)
    }

    /// One `PubRestrictionEntry`: a purpose id (0–63), a type (0–3) and its vendor ranges.
    struct Restriction {
        var purposeId: Int
        var type: Int
        var vendors: [ClosedRange<Int>]
    }

    /// The review's string (637 characters): vendor consents and legitimate interests 1–65,535,
    /// 64 restrictions (purpose ids 0–63, type 1) each of vendors 1–65,535, disclosed vendors
    /// 1–65,535, CMP 4095, vendor list 45, policy 4.
    static func review(created: Date = Date()) -> String {
        tc(created: created)
    }

    /// Worse: every purpose id under every restriction type, each with single ids and ranges up
    /// to 65,535, and bitfield vendor sections of 65,535 ids.
    static func everyForm(created: Date = Date()) -> String {
        let vendors: [ClosedRange<Int>] = [1...1, 2...2, 3...65_533, 65_534...65_534, 65_535...65_535]
        let restrictions = (0..<64).flatMap { purpose in (0..<4).map { Restriction(purposeId: purpose, type: $0, vendors: vendors) } }
        return tc(vendors: .bitfield(max: 65_535), restrictions: restrictions, disclosed: .bitfield(max: 65_535), created: created)
    }

    /// The old worst case (16,356 characters): 1,845 restrictions, purpose ids 0–63 in turn,
    /// each of vendors 1–65,535, and no DisclosedVendors segment.
    static func manyRestrictions(created: Date = Date()) -> String {
        tc(restrictions: (0..<1_845).map { Restriction(purposeId: $0 % 64, type: 1, vendors: [1...65_535]) }, disclosed: nil, created: created)
    }

    /// A TC string: core segment, then (unless `disclosed` is nil) a DisclosedVendors segment.
    static func tc(
        vendors: Section = .ranges([1...65_535]),
        restrictions: [Restriction] = (0..<64).map { Restriction(purposeId: $0, type: 1, vendors: [1...65_535]) },
        disclosed: Section? = .ranges([1...65_535]), purposes: Int = (1 << 24) - 1, cmp: Int = 4095, vendorListVersion: Int = 45,
        policy: Int = 4, language: String = "EN", created: Date = Date()
    ) -> String {
        let deciseconds = Int(created.timeIntervalSince1970 * 10)
        var core = Bits()
        core.write(2, 6); core.write(deciseconds, 36); core.write(deciseconds, 36); core.write(cmp, 12); core.write(1, 12)
        core.write(1, 6); core.letters(language); core.write(vendorListVersion, 12); core.write(policy, 6)
        core.write(1, 1); core.write(0, 1); core.write(0, 12); core.write(purposes, 24); core.write(0, 24); core.write(0, 1)
        core.letters("AA")
        core.section(vendors)
        core.section(vendors)
        core.write(restrictions.count, 12)
        for restriction in restrictions {
            core.write(restriction.purposeId, 6)
            core.write(restriction.type, 2)
            core.ranges(restriction.vendors)
        }
        var text = core.base64URL()
        if let disclosed {
            var segment = Bits()
            segment.write(1, 3)
            segment.section(disclosed)
            text += "." + segment.base64URL()
        }
        return text
    }

    /// Bits, most significant first.
    struct Bits {
        var bits: [UInt8] = []

        mutating func write(_ value: Int, _ width: Int) {
            for index in 0..<width { bits.append(UInt8((value >> (width - 1 - index)) & 1)) }
        }

        mutating func letters(_ code: String) {
            for scalar in code.unicodeScalars { write(Int(scalar.value) - 65, 6) }
        }

        mutating func ranges(_ ranges: [ClosedRange<Int>]) {
            write(ranges.count, 12)
            for range in ranges {
                if range.count == 1 {
                    write(0, 1); write(range.lowerBound, 16)
                } else {
                    write(1, 1); write(range.lowerBound, 16); write(range.upperBound, 16)
                }
            }
        }

        mutating func section(_ section: Section) {
            switch section {
            case .ranges(let ranges):
                write(ranges.map(\.upperBound).max() ?? 0, 16); write(1, 1); self.ranges(ranges)
            case .bitfield(let max):
                write(max, 16); write(0, 1)
                bits.append(contentsOf: repeatElement(1, count: max))
            }
        }

        /// Unpadded base64url of the bits, zero-filled to whole bytes.
        func base64URL() -> String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(bits.count / 8 + 1)
            var index = 0
            while index < bits.count {
                var byte: UInt8 = 0
                for offset in 0..<8 { byte = byte << 1 | (index + offset < bits.count ? bits[index + offset] : 0) }
                bytes.append(byte)
                index += 8
            }
            return Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
    }
}
