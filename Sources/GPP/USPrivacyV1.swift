/// The US Privacy string (section 6, `uspv1`): four characters, not base64, such as `1YNN`.
/// Discontinued by the IAB in 2024; read for compatibility (Google still reads it).
public struct USPrivacyV1: Sendable, Hashable {
    /// One of the three signal characters.
    public enum Signal: Character, Sendable, CaseIterable {
        /// `Y`: yes.
        case yes = "Y"
        /// `N`: no.
        case no = "N"
        /// `-`: not applicable.
        case notApplicable = "-"
    }

    /// `Version`: the specification version, 1.
    public var version: Int
    /// `Notice`: explicit notice of the right to opt out was given.
    public var notice: Signal
    /// `OptOutSale`: the user opted out of the sale of personal information.
    public var optOutSale: Signal
    /// `LspaCovered`: the publisher is a signatory to the LSPA and the transaction is covered.
    public var lspaCovered: Signal

    /// A US Privacy string's values.
    public init(version: Int = 1, notice: Signal, optOutSale: Signal, lspaCovered: Signal) {
        self.version = version
        self.notice = notice
        self.optOutSale = optOutSale
        self.lspaCovered = lspaCovered
    }

    /// Decodes the four characters of `text`.
    init(decoding text: UnsafeBufferPointer<UInt8>) throws(GPPDecodingError) {
        func failure(_ reason: GPPDecodingError.Reason, _ field: String, _ index: Int) -> GPPDecodingError {
            GPPDecodingError(reason, sectionId: 6, sectionPrefix: "uspv1", field: field, bitOffset: index * 6)
        }
        let names = ["Version", "Notice", "OptOutSale", "LspaCovered"]
        guard text.count == 4 else {
            throw failure(.truncated(needed: 24, available: Swift.min(text.count, 4) * 6), names[Swift.min(text.count, 3)], Swift.min(text.count, 4))
        }
        guard text[0] == UInt8(ascii: "1") else {
            let character = text[0]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) {
                throw failure(.invalidValue(Int(character) - 48), "Version", 0)
            }
            throw failure(.invalidCharacter(Character(Unicode.Scalar(character))), "Version", 0)
        }
        var signals: [Signal] = []
        for index in 1...3 {
            guard let signal = Signal(rawValue: Character(Unicode.Scalar(text[index]))) else {
                throw failure(.invalidCharacter(Character(Unicode.Scalar(text[index]))), names[index], index)
            }
            signals.append(signal)
        }
        self.init(version: 1, notice: signals[0], optOutSale: signals[1], lspaCovered: signals[2])
    }

    /// The four characters, like `1YNN`.
    ///
    /// - Throws: ``GPPEncodingError`` when the version is not a single digit.
    public func encoded() throws(GPPEncodingError) -> String {
        guard (0...9).contains(version) else {
            throw GPPEncodingError(.outOfRange(value: version, allowed: "0...9"), sectionId: 6, field: "Version")
        }
        return "\(version)\(notice.rawValue)\(optOutSale.rawValue)\(lspaCovered.rawValue)"
    }
}
