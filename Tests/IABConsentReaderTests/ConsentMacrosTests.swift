import Testing
@testable import IABConsentReader

@Suite("Ad-server macros")
struct ConsentMacrosTests {
    static let tc = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA"

    @Test("{gdpr} and ${GDPR} expand to 1, 0, or nothing when undetermined", arguments: [
        (GDPRApplicability.applies, "1"), (.doesNotApply, "0"), (.undetermined, ""),
    ])
    func gdpr(applicability: GDPRApplicability, expected: String) {
        let macros = ConsentMacros(gdprApplies: applicability, tcString: Self.tc)
        #expect(macros.expand("https://ads.example/t?gdpr={gdpr}&g2=${GDPR}") == "https://ads.example/t?gdpr=\(expected)&g2=\(expected)")
    }

    @Test("{gdpr_consent} expands to the TC string, unchanged")
    func gdprConsent() {
        let macros = ConsentMacros(gdprApplies: .applies, tcString: Self.tc, consentStringV1: "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
        #expect(macros.expand("c={gdpr_consent}") == "c=\(Self.tc)")
    }

    @Test("{gdpr_consent} gets the v1 consent string when only v1 keys are stored")
    func gdprConsentVersion1() throws {
        let snapshot = try snapshot(of: [IABKey.subjectToGDPR: "1", IABKey.consentString: "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"])
        #expect(snapshot.expandingMacros(in: "gdpr={gdpr}&c={gdpr_consent}") == "gdpr=1&c=BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
    }

    @Test("${GDPR_CONSENT_XXXXX} expands to the TC string for any vendor id, several in one URL")
    func gdprConsentForVendors() {
        let macros = ConsentMacros(gdprApplies: .applies, tcString: Self.tc)
        let template = "https://a.example/p?gdpr=${GDPR}&gdpr_consent=${GDPR_CONSENT_755}&r=https%3A%2F%2Fb.example%2Fs%3Fc%3D${GDPR_CONSENT_1}&x=${GDPR_CONSENT_65535}"
        #expect(macros.expand(template) == "https://a.example/p?gdpr=1&gdpr_consent=\(Self.tc)&r=https%3A%2F%2Fb.example%2Fs%3Fc%3D\(Self.tc)&x=\(Self.tc)")
    }

    @Test("${GDPR_CONSENT_XXXXX} carries only a TC string, never a v1 consent string")
    func gdprConsentForVendorNeedsTCString() {
        let macros = ConsentMacros(gdprApplies: .applies, tcString: nil, consentStringV1: "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
        #expect(macros.expand("c=${GDPR_CONSENT_755}") == "c=")
    }

    @Test("values are percent-encoded: every byte but A-Z a-z 0-9 - . _ ~")
    func percentEncoding() {
        let macros = ConsentMacros(gdprApplies: .applies, tcString: "a+b/c=d e&f~g.h_i-jé")
        #expect(macros.expand("${GDPR_CONSENT_1}|{gdpr_consent}") == "a%2Bb%2Fc%3Dd%20e%26f~g.h_i-j%C3%A9|a%2Bb%2Fc%3Dd%20e%26f~g.h_i-j%C3%A9")
    }

    @Test("a ${GDPR_CONSENT_...} macro without a valid vendor id is left as written", arguments: [
        "${GDPR_CONSENT_}", "${GDPR_CONSENT_0}", "${GDPR_CONSENT_0755}", "${GDPR_CONSENT_65536}",
        "${GDPR_CONSENT_1234567}", "${GDPR_CONSENT_abc}", "${GDPR_CONSENT_12", "${GDPR_CONSENT_-1}",
    ])
    func invalidVendorId(template: String) {
        #expect(ConsentMacros(gdprApplies: .applies, tcString: Self.tc).expand(template) == template)
    }

    @Test("other text, unknown macros and differently cased macros are left untouched")
    func otherTextUntouched() {
        let template = "ünïcode ✓ {GDPR} ${Gdpr} {gdpr_consent_x} ${US_PRIVACY} $ { } {gdpr"
        #expect(ConsentMacros(gdprApplies: .applies, tcString: Self.tc).expand(template) == template)
    }

    @Test("with no consent string the consent macros expand to nothing")
    func noConsentString() {
        let macros = ConsentMacros(gdprApplies: .undetermined, tcString: nil)
        #expect(macros.expand("g={gdpr}&c={gdpr_consent}&c2=${GDPR_CONSENT_9}") == "g=&c=&c2=")
    }

    @Test("vendorIds(in:) lists the vendor ids of the macros that would be replaced")
    func vendorIds() {
        #expect(ConsentMacros.vendorIds(in: "${GDPR_CONSENT_755}${GDPR_CONSENT_0}${GDPR_CONSENT_12}{gdpr}${GDPR_CONSENT_755}") == [755, 12, 755])
    }
}
