import ConsentdAPI
import Foundation
import TCF
import Testing
@testable import ConsentKit

/// The Google choice a decision records (``GoogleAdsChoice/init(_:status:)``).
@Suite("Google ads choice of a decision")
struct GoogleAdsChoiceTests {
    static let decision = ConsentState.agreeToAll(scope: testScope(vendorIds: [755]), at: testDate)

    @Test("a personalized or non-personalized status records that choice")
    func statusIsTheChoice() {
        #expect(GoogleAdsChoice(Self.decision, status: .personalized) == .personalized)
        #expect(GoogleAdsChoice(Self.decision, status: .nonPersonalized) == .nonPersonalized)
    }

    @Test("an unknown status records no Google choice: the user has made none that holds")
    func unknownRecordsNoChoice() {
        #expect(GoogleAdsChoice(Self.decision, status: .unknown) == nil)
    }

    @Test("preferring the ad-free version records ad-free whatever the status")
    func adFreeWins() {
        let adFree = Self.decision.changing(at: testDate) { $0.prefersAdFree = true }
        for status in [GoogleConsentStatus.personalized, .nonPersonalized, .unknown] {
            #expect(GoogleAdsChoice(adFree, status: status) == .adFree, "\(status)")
        }
    }

    @Test("a decision judged against a configuration that added a provider is unknown, and records no choice in its event")
    func unknownInTheEvent() throws {
        let config = try JSONDecoder().decode(AppConfig.self, from: configJSON(gdprApplies: true, providers: [(89, "New")]))
        let context = ConsentEventContext(method: .acceptAll, noticeId: "main", platform: .ios, cmp: testCMP, appConfig: config)
        #expect(GoogleConsentStatus.of(Self.decision, config: config, gdprApplies: .applies) == .unknown)
        #expect(try context.event(for: Self.decision).consent.googleAdsChoice == nil)
    }
}
