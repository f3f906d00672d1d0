import Testing
@testable import ConsentKit

@Suite("Simulated tracking authorization answers like the system")
struct SimulatedTrackingAuthorizationTests {
    @Test("the first request while not determined shows the prompt and takes the user's answer", arguments: [TrackingAuthorizationStatus.authorized, .denied])
    func firstRequestPrompts(answer: TrackingAuthorizationStatus) async {
        let tracking = SimulatedTrackingAuthorization(answer: answer)
        #expect(await tracking.requestAuthorization() == answer)
        #expect(tracking.status == answer)
        #expect(tracking.promptCount == 1)
    }

    @Test("later requests return the stored status without prompting again")
    func promptsOnce() async {
        let tracking = SimulatedTrackingAuthorization(answer: .denied)
        _ = await tracking.requestAuthorization()
        #expect(await tracking.requestAuthorization() == .denied)
        #expect(await tracking.requestAuthorization() == .denied)
        #expect(tracking.promptCount == 1)
        #expect(tracking.requestCount == 3)
    }

    @Test("a status determined in an earlier launch is returned without a prompt")
    func determinedEarlier() async {
        let tracking = SimulatedTrackingAuthorization(status: .authorized, answer: .denied)
        #expect(await tracking.requestAuthorization() == .authorized)
        #expect(tracking.promptCount == 0)
    }

    @Test("a restricted device never prompts")
    func restrictedNeverPrompts() async {
        let restricted = SimulatedTrackingAuthorization(status: .restricted, answer: .authorized)
        #expect(await restricted.requestAuthorization() == .restricted)
        let becomesRestricted = SimulatedTrackingAuthorization(answer: .restricted)
        #expect(await becomesRestricted.requestAuthorization() == .restricted)
        #expect(restricted.promptCount == 0)
        #expect(becomesRestricted.promptCount == 0)
    }

    @Test("an answer of notDetermined shows nothing and leaves the status open, as for an app that is not active")
    func inactiveAppShowsNothing() async {
        let tracking = SimulatedTrackingAuthorization(answer: .notDetermined)
        #expect(await tracking.requestAuthorization() == .notDetermined)
        #expect(tracking.promptCount == 0)
        #expect(tracking.status == .notDetermined)
    }

    @Test("a device without ATT never prompts")
    func unavailableNeverPrompts() async {
        let tracking = SimulatedTrackingAuthorization.unavailable()
        _ = await tracking.requestAuthorization()
        #expect(!tracking.isAvailable)
        #expect(tracking.promptCount == 0)
    }

    @Test("a change in Settings changes the status without a prompt")
    func settingsChange() async {
        let tracking = SimulatedTrackingAuthorization(status: .authorized)
        tracking.changeInSettings(to: .denied)
        #expect(await tracking.requestAuthorization() == .denied)
        #expect(tracking.promptCount == 0)
    }
}
