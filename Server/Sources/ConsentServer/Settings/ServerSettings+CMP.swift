import ConsentdAPI

extension ServerSettings {
    /// The CMP ids the IAB assigns: 0 and 1 are not valid ids, 4095 is the largest that fits the
    /// TC string's 12 bits.
    public static let cmpIdRange = 2...4095
    /// The CMP versions that fit the TC string's 12 bits.
    public static let cmpVersionRange = 0...4095
    /// The version used when only a CMP id is given.
    public static let defaultCMPVersion = 1

    /// How the settings are named in messages: the option and its environment variable.
    static let cmpIdSetting = "--cmp-id (CONSENTD_CMP_ID)"
    static let cmpVersionSetting = "--cmp-version (CONSENTD_CMP_VERSION)"

    /// Sets ``cmp`` from the text of `--cmp-id` / `CONSENTD_CMP_ID` and `--cmp-version` /
    /// `CONSENTD_CMP_VERSION`, nil for a setting not given. Without an id the development identity
    /// stays. A version without an id, a value that is not a whole number and one out of range are
    /// refused with an error that names the setting and what to give instead.
    ///
    /// Id 4095 given explicitly is accepted but stays marked as development: the IAB has not
    /// assigned it, so it is never a registered identity.
    public mutating func setCMP(id: String?, version: String?) throws(ConfigurationError) {
        guard let id else {
            if let version {
                throw Self.settingError(Self.cmpVersionSetting, "is \(version), but no CMP id is set: the version belongs to the CMP id the "
                    + "IAB registered for you; give \(Self.cmpIdSetting) too")
            }
            return
        }
        let parsedId = try Self.number(id, setting: Self.cmpIdSetting, range: Self.cmpIdRange, meaning: "the id the IAB registered for your CMP")
        let parsedVersion = try version.map { text throws(ConfigurationError) in
            try Self.number(text, setting: Self.cmpVersionSetting, range: Self.cmpVersionRange, meaning: "your CMP's version")
        } ?? Self.defaultCMPVersion
        cmp = AppConfig.CMP(id: parsedId, version: parsedVersion, isDevelopment: parsedId == AppConfig.CMP.development.id)
    }

    /// Checks ``cmp`` (as set in code): the id in ``cmpIdRange``, the version in ``cmpVersionRange``.
    public func checkCMP() throws(ConfigurationError) {
        guard Self.cmpIdRange.contains(cmp.id) else {
            throw Self.settingError(Self.cmpIdSetting, "is \(cmp.id); it must lie in \(Self.cmpIdRange): the id the IAB registered for your CMP")
        }
        guard Self.cmpVersionRange.contains(cmp.version) else {
            throw Self.settingError(Self.cmpVersionSetting, "is \(cmp.version); it must lie in \(Self.cmpVersionRange): your CMP's version")
        }
    }

    /// What consentd logs at start while it uses the development identity.
    public static let developmentCMPWarning = """
        CMP id \(AppConfig.CMP.development.id) is the development identity: the IAB has not assigned it, so TC strings carrying it \
        are not valid in production. Register your CMP with the IAB (https://iabeurope.eu/cmp-list/) and start consentd with \
        --cmp-id ID [--cmp-version VERSION] (or CONSENTD_CMP_ID and CONSENTD_CMP_VERSION).
        """

    private static func number(_ text: String, setting: String, range: ClosedRange<Int>, meaning: String) throws(ConfigurationError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw settingError(setting, "is \(text); it must be a whole number in \(range): \(meaning)")
        }
        return value
    }

    private static func settingError(_ setting: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: "settings", line: nil, field: setting, message: message)
    }
}
