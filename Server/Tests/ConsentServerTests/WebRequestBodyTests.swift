@testable import ConsentServer
import ConsentdAPI
import Foundation
import Testing

/// The web CMP's request bodies, typed in ConsentdAPI (`WebSessionRequest`, `WebChoiceRequest`):
/// unknown and repeated keys are refused before decoding, and a field that does not decode is
/// refused with its path.
@Suite("Web request bodies")
struct WebRequestBodyTests {
    /// The refusal reading `json` as a choice throws.
    static func refusal(_ json: String) throws -> APIError {
        do {
            _ = try WebCMP.ChoiceRequest(json: Data(json.utf8))
        } catch let error as APIError {
            return error
        }
        throw WebRequestBodyError.accepted(json)
    }

    enum WebRequestBodyError: Error { case accepted(String) }

    @Test("a choice's field of the wrong type is refused with its name")
    func wrongTypeNamesTheField() throws {
        let error = try Self.refusal(#"{"credential":"k","reopen":"yes","message":{}}"#)
        #expect(error.status == .badRequest && error.field == "reopen" && error.message == "reopen must be true or false")
    }

    @Test("a field of the app's consent that does not decode is refused with its path")
    func nestedFieldNamesItsPath() throws {
        let error = try Self.refusal(#"{"credential":"k","appConsent":{"tcString":"x","subjectToken":5}}"#)
        #expect(error.field == "appConsent.subjectToken" && error.message == "appConsent.subjectToken must be text")
        #expect(try Self.refusal(#"{"credential":"k","appConsent":{"subjectId":"u"}}"#).field == "appConsent.tcString")
    }

    @Test("a choice without a credential, or without a result or an app's consent, is refused naming what is missing")
    func missingFieldsAreNamed() throws {
        #expect(try Self.refusal(#"{"message":{}}"#).field == "credential")
        #expect(try Self.refusal(#"{"credential":"k"}"#).field == "message")
        #expect(try Self.refusal(#"{"credential":"k","message":3}"#).message == "message must be the notice's result object")
    }

    @Test("unknown keys are still refused before decoding, nested ones with their path")
    func unknownKeysStayRefused() throws {
        #expect(try Self.refusal(#"{"credential":"k","colour":1,"message":{}}"#).field == "colour")
        #expect(try Self.refusal(#"{"credential":"k","appConsent":{"tcString":"x","gdpr":1}}"#).field == "appConsent.gdpr")
    }

    @Test("a result message is kept as the JSON object it was, numbers included")
    func messageIsKept() throws {
        let request = try WebCMP.ChoiceRequest(json: Data(#"{"credential":"k","message":{"protocol":1,"layer":3,"timings":{"shownMs":3.5}}}"#.utf8))
        let message = try #require(request.message)
        let object = try #require(try JSONSerialization.jsonObject(with: message) as? [String: Any])
        #expect(object["protocol"] as? Int == 1 && object["layer"] as? Int == 3)
        #expect((object["timings"] as? [String: Any])?["shownMs"] as? Double == 3.5)
    }

    @Test("a page view's region that is none is refused with its name")
    func sessionRegionIsNamed() {
        do {
            _ = try RequestBody.decode(WebSessionRequest.self, from: Data(#"{"credential":"k","debugRegion":"mars"}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.field == "debugRegion")
        }
    }

    @Test("a playground result's options that are not an object, or a missing message, are refused with their names")
    func demoResultFieldsAreNamed() throws {
        func refusal(_ json: String) throws -> APIError {
            do {
                _ = try NoticeDemo.Decide(json: Data(json.utf8))
            } catch let error as APIError {
                return error
            }
            throw WebRequestBodyError.accepted(json)
        }
        #expect(try refusal(#"{"options":3,"message":{},"credential":"k"}"#).field == "options")
        #expect(try refusal(#"{"credential":"k"}"#).field == "message")
        #expect(try refusal(#"{"options":{"mode":"paper"},"message":{},"credential":"k"}"#).field == "options.mode")
        #expect(try refusal(#"{"message":{},"credential":"k","colour":1}"#).field == "colour")
        let defaults = try NoticeDemo.Decide(json: Data(#"{"message":{"protocol":1},"credential":"k"}"#.utf8))
        #expect(defaults.options == DemoOptions() && defaults.credential == "k")
    }
}
