import Testing
@testable import TCF

/// The decoding table is written out byte by byte; it must say what the alphabets say.
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
}
