/// Test strings spelled as bits, the way the specs show them: `bits("000011 000001")` is the
/// base64url text of those bits, zero-filled to a whole character (spaces ignored).
func bits(_ pattern: String) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var digits = pattern.filter { $0 == "0" || $0 == "1" }.map { $0 == "1" ? 1 : 0 }
    while digits.count % 6 != 0 { digits.append(0) }
    return String(stride(from: 0, to: digits.count, by: 6).map { start in
        alphabet[digits[start..<start + 6].reduce(0) { $0 << 1 | $1 }]
    })
}

/// The bits of base64url `text`, six per character, as a string of 0 and 1.
func bitString(_ text: Substring) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    return text.map { character in
        let value = alphabet.firstIndex(of: character)!
        return String((0..<6).map { value >> (5 - $0) & 1 == 1 ? "1" : "0" })
    }.joined()
}

/// `text` without the trailing zero characters (`A`) of each `.`-separated part: two strings
/// that agree on this differ only in padding.
func withoutPadding(_ text: String) -> String {
    text.split(separator: "~", omittingEmptySubsequences: false).map { section in
        section.split(separator: ".", omittingEmptySubsequences: false).map { part in
            String(part.reversed().drop { $0 == "A" }.reversed())
        }.joined(separator: ".")
    }.joined(separator: "~")
}
