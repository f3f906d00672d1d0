/// The body of every refusal consentd sends: `{"error": {"code", "message", "field"}}`.
///
/// The codes are listed in `docs/consentd-api.md` (`invalid_field`, `unauthorized`,
/// `rate_limited`, ...); `field` names the request field at fault, when one is.
public struct ConsentdErrorBody: Sendable, Equatable, Codable {
    /// What went wrong.
    public var error: Detail

    /// Creates a body.
    public init(code: String, message: String, field: String? = nil) {
        error = Detail(code: code, message: message, field: field)
    }

    /// The refusal itself.
    public struct Detail: Sendable, Equatable, Codable {
        /// A stable, machine-readable code (`invalid_field`, `rate_limited`, ...).
        public var code: String
        /// What went wrong and what to do, for people.
        public var message: String
        /// The request field at fault (`proof.method`, `vendorConsents[3]`, `debug_geo`); left
        /// out when the refusal is not about one field.
        public var field: String?

        /// Creates a detail.
        public init(code: String, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }
}
