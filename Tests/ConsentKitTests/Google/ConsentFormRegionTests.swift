import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Seed 001 (Google's Consent SDK): "the consent form does not load if the user is not in the
/// EEA"; `requestLocationInEEAOrUnknown` YES (the EEA, or unknown) lets it load.
@Suite("001-18: checkConsentFormCanLoad checks the region")
struct ConsentFormRegionTests {
    @Test("001-18: where GDPR does not apply the form may not load; in the EEA and where the region is unknown it may")
    func regionDecides() async throws {
        for (gdpr, refused) in [(false, true), (true, false), (nil, false)] as [(Bool?, Bool)] {
            let (manager, google) = googleManager(gdpr: gdpr)
            _ = try? await google.requestConsentInfoUpdate()
            #expect(google.isRequestLocationInEEAOrUnknown == !refused, "\(String(describing: gdpr))")
            if refused {
                #expect(throws: GoogleConsentError.notInEEA) { try google.checkConsentFormCanLoad() }
                #expect("\(GoogleConsentError.notInEEA)".contains("GDPR does not apply"))
            } else {
                #expect(throws: Never.self) { try google.checkConsentFormCanLoad() }
            }
            _ = manager
        }
    }

    @Test("001-18: a debug geography on a debug device decides whether the form may load", arguments: [DebugRegion.eea, .notEEA])
    func debugGeography(region: DebugRegion) async throws {
        // Without consentd the debug geography decides the region on the device itself.
        let manager = makeManager(consentd: nil, debug: RegionDebugSettings(geography: region, deviceIdentifiers: ["device-A"]))
        await manager.refreshed()
        let google = GoogleAdsConsent(manager: manager)
        if region == .eea {
            #expect(throws: Never.self) { try google.checkConsentFormCanLoad() }
        } else {
            #expect(throws: GoogleConsentError.notInEEA) { try google.checkConsentFormCanLoad() }
        }
    }

    @Test("001-18: the under-age tag is checked first, wherever the user is")
    func underAgeFirst() async throws {
        let (_, google) = googleManager(gdpr: false)
        _ = try? await google.requestConsentInfoUpdate()
        google.setTagForUnderAgeOfConsent(true)
        #expect(throws: GoogleConsentError.taggedUnderAgeOfConsent) { try google.checkConsentFormCanLoad() }
    }
}
