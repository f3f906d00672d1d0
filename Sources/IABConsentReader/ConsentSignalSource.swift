/// Which generation of IAB in-app keys a snapshot was read from.
public enum ConsentSignalSource: Sendable, Hashable {
    /// At least one `IABTCF_*` key is stored: the snapshot holds the v2 keys only.
    case version2
    /// No `IABTCF_*` key is stored but some `IABConsent_*` key is: the snapshot holds the v1 keys
    /// ("Mobile In-App Consent APIs v1.0"). v1 carries consent only (no legitimate interest,
    /// special features or restrictions), and its purpose ids are the five v1 purposes.
    case version1
    /// No IAB key is stored: no CMP has written anything yet.
    case none
}
