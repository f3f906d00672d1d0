/// The two-letter codes of the fifty US states and the District of Columbia: the suffixes of
/// their ISO 3166-2 codes (`US-CA` is California), upper-case. A region decision's
/// ``AppConfig/subdivision`` is one of these; nothing else becomes a state.
public enum USStateCode {
    /// Every code: the fifty states and DC.
    public static let all: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
        "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI",
        "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
    ]

    /// `text` as a state's code, upper-cased (`ca` → `CA`); nil when it names no state or DC.
    public static func parse(_ text: some StringProtocol) -> String? {
        let code = text.uppercased()
        return all.contains(code) ? code : nil
    }
}
