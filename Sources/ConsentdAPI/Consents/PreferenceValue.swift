/// The value of one of an event's free-form `preferences` (iubenda's `preferences`, such as
/// `{"newsletter": true, "profiling": false}`): a boolean, an integer or a string.
public enum PreferenceValue: Sendable, Equatable, Codable {
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A string (at most ``ConsentRecord/maximumPreferenceStringLength`` bytes).
    case string(String)

    /// Reads a boolean, an integer or a string; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.typeMismatch(PreferenceValue.self, .init(
                codingPath: decoder.codingPath, debugDescription: "a preference must be a boolean, an integer or a string"))
        }
    }

    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let flag): try container.encode(flag)
        case .integer(let integer): try container.encode(integer)
        case .string(let text): try container.encode(text)
        }
    }
}
