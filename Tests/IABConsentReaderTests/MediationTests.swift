import Testing
@testable import IABConsentReader

@Suite("Mediation")
struct MediationTests {
    static let networks = [
        MediationNetwork(name: "Ready A", isGDPRReady: true),
        MediationNetwork(name: "Legacy", isGDPRReady: false),
        MediationNetwork(name: "Ready B", isGDPRReady: true),
    ]
    static let ready = networks.filter(\.isGDPRReady)

    @Test("IABTCF_gdprApplies 0 runs every network")
    func gdprDoesNotApply() throws {
        #expect(try snapshot(of: [IABKey.gdprApplies: 0]).networksToRun(Self.networks) == Self.networks)
    }

    @Test("IABTCF_gdprApplies 1 runs only the GDPR-ready networks, in order")
    func gdprApplies() throws {
        #expect(try snapshot(of: [IABKey.gdprApplies: 1]).networksToRun(Self.networks) == Self.ready)
    }

    @Test("an undetermined applicability runs only the GDPR-ready networks")
    func gdprUndetermined() throws {
        #expect(try snapshot(of: [IABKey.cmpSdkID: 300]).networksToRun(Self.networks) == Self.ready)
    }

    @Test("with only v1 keys, IABConsent_SubjectToGDPR decides", arguments: [
        ("0", networks), ("1", ready),
    ] as [(String, [MediationNetwork])])
    func version1(subjectToGDPR: String, expected: [MediationNetwork]) throws {
        #expect(try snapshot(of: [IABKey.subjectToGDPR: subjectToGDPR]).networksToRun(Self.networks) == expected)
    }

    @Test("networks of the app's own type are filtered by their GDPR-ready flag")
    func ownNetworkType() throws {
        struct Adapter { let id: String; let passesConsent: Bool }
        let adapters = [Adapter(id: "a", passesConsent: false), Adapter(id: "b", passesConsent: true)]
        let run = try snapshot(of: [IABKey.gdprApplies: 1]).networksToRun(adapters, isGDPRReady: \.passesConsent)
        #expect(run.map(\.id) == ["b"])
    }
}
