import Testing
@testable import TCF

/// The decoding tables are written out byte by byte; they must say what the alphabets say.
@Suite struct Base64URLTests {
    @Test func the_decoding_table_maps_each_alphabet_character_to_its_value_and_every_other_byte_to_0xFF() {
        let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        #expect(Base64URL.decodingTable.count == 256)
        for byte in 0...255 {
            let expected: UInt8
            if let value = urlAlphabet.firstIndex(of: UInt8(byte)) {
                expected = UInt8(value)
            } else if byte == Int(UInt8(ascii: "+")) {
                expected = 62
            } else if byte == Int(UInt8(ascii: "/")) {
                expected = 63
            } else {
                expected = 0xFF
            }
            #expect(Base64URL.decodingTable[byte] == expected, "byte \(byte)")
        }
    }

    @Test func the_group_tables_hold_each_byte_value_in_its_place_and_bit_31_for_every_other_byte() {
        #expect(Base64URL.groupTables.count == 4 * 256)
        for place in 0..<4 {
            for byte in 0...255 {
                let value = Base64URL.decodingTable[byte]
                let expected: UInt32 = value == 0xFF ? 0x8000_0000 : UInt32(value) << UInt32(18 - 6 * place)
                #expect(Base64URL.groupTables[256 * place + byte] == expected, "place \(place), byte \(byte)")
            }
        }
    }
}
