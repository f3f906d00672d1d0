/// An ad network SDK a mediation SDK can call, and whether it is GDPR ready: it reads the GDPR
/// applicability and the consent string from the IAB keys and passes them downstream.
public struct MediationNetwork: Sendable, Hashable {
    /// The network's name, as the mediation SDK knows it.
    public let name: String
    /// Whether the network passes the GDPR applicability and consent string downstream.
    public let isGDPRReady: Bool

    /// A network named `name`.
    public init(name: String, isGDPRReady: Bool) {
        self.name = name
        self.isGDPRReady = isGDPRReady
    }
}

extension GDPRApplicability {
    /// Whether mediation may run a network: every network when the GDPR does not apply, only
    /// GDPR-ready ones when it applies ("Mobile In-App Consent APIs v1.0" and "CMP API v2",
    /// mediation). Neither spec covers an undetermined applicability; it is treated like
    /// "applies", the choice that cannot send data to a network unable to carry consent.
    public func allowsMediation(ofGDPRReadyNetwork isGDPRReady: Bool) -> Bool {
        switch self {
        case .doesNotApply: true
        case .applies, .undetermined: isGDPRReady
        }
    }
}

extension IABConsentSnapshot {
    /// The networks mediation may run, in the given order: all of them when the GDPR does not
    /// apply; only the GDPR-ready ones when it applies or is undetermined. The applicability is
    /// `IABTCF_gdprApplies`, or `IABConsent_SubjectToGDPR` when no v2 key is stored.
    public func networksToRun(_ networks: [MediationNetwork]) -> [MediationNetwork] {
        networksToRun(networks, isGDPRReady: \.isGDPRReady)
    }

    /// The networks mediation may run, for a network type of your own; see
    /// ``networksToRun(_:)``.
    public func networksToRun<Network>(_ networks: [Network], isGDPRReady: (Network) -> Bool) -> [Network] {
        networks.filter { gdprApplies.allowsMediation(ofGDPRReadyNetwork: isGDPRReady($0)) }
    }
}
