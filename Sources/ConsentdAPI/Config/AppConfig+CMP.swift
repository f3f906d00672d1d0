extension AppConfig {
    /// The CMP identity TC strings carry (`CmpId`, `CmpVersion`): the id the IAB registered for
    /// whoever runs consentd, and that CMP's version. Apps receive it with the configuration.
    ///
    /// A server whose operator has not set one answers ``development``: an id the IAB has not
    /// assigned, which is fine for development and must not reach production.
    public struct CMP: Sendable, Hashable, Codable {
        /// The CMP's id in the IAB's CMP list (2-4095).
        public var id: Int
        /// The CMP's version (0-4095).
        public var version: Int
        /// Whether this is the development identity rather than a CMP the IAB registered.
        public var isDevelopment: Bool

        /// Creates an identity; `isDevelopment` is false for an id the IAB registered.
        public init(id: Int, version: Int, isDevelopment: Bool = false) {
            self.id = id
            self.version = version
            self.isDevelopment = isDevelopment
        }

        /// The development identity: CMP id 4095 (the largest 12-bit id, which the IAB has not
        /// assigned) and version 1.
        public static let development = CMP(id: 4095, version: 1, isDevelopment: true)

        // `isDevelopment` is written as `development`.
        private enum CodingKeys: String, CodingKey {
            case id, version
            case isDevelopment = "development"
        }
    }
}
