import ConsentKit
import ConsentKitUI
import Foundation
import Testing

/// How long the CMP keeps the choice, as the notice discloses it (TCF policy Appendix B, D(c)(VII);
/// decision record 0026).
@Suite("The notice's storage duration of the choice")
struct ChoiceStorageTests {
    private func document(_ settings: NoticeSettings) async throws -> NoticeDocument {
        try NoticeSession(manager: await noticeManager(), settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false)).document
    }

    @Test("an app's document keeps the choice until it changes: no number of days, null in its JSON")
    func appKeepsUntilChanged() async throws {
        let built = try await document(publisherSettings)
        #expect(built.choiceStorageDays == nil)
        #expect(String(decoding: built.json(), as: UTF8.self).contains(#""choiceStorageDays":null"#))
    }

    @Test("the number of days the publisher sets is the document's and reads back from its JSON")
    func daysInJSON() async throws {
        var settings = publisherSettings
        settings.choiceStorageDays = 390
        let built = try await document(settings)
        #expect(built.choiceStorageDays == 390)
        #expect(String(decoding: built.json(), as: UTF8.self).contains(#""choiceStorageDays":390"#))
        #expect(try JSONDecoder().decode(NoticeDocument.self, from: built.json()) == built)
    }

    @Test("zero days is refused with the setting named")
    func zeroDaysRefused() async throws {
        var settings = publisherSettings
        settings.choiceStorageDays = 0
        do {
            _ = try await document(settings)
            Issue.record("a document was built")
        } catch {
            let session = try #require(error as? NoticeSessionError)
            #expect(session == .document(.choiceStorageDays(0)))
            #expect(NoticeDocumentError.choiceStorageDays(0).description.contains("NoticeSettings.choiceStorageDays is 0"))
        }
    }
}
