import ConsentdAPI
import Foundation

/// The fields of the web CMP's and the demo's request bodies, which ``StrictJSONObject`` checks:
/// one list per body, read by consentd's routes and by the fuzzer (Fuzz/Sources/FuzzWeb).
public enum WebRequestFields {
    /// `POST /v1/web/session`: a page view.
    public static let session = Set(WebSessionRequest.CodingKeys.allCases.map(\.rawValue))
    /// `POST /v1/web/choices`: a choice made on the page, or the app's consent (`appConsent`).
    public static let choice = Set(WebChoiceRequest.CodingKeys.allCases.map(\.rawValue))
    /// `appConsent` of `POST /v1/web/choices`: the app's strings and its own credential.
    public static let appConsent = Set(WebChoiceRequest.AppConsent.CodingKeys.allCases.map(\.rawValue))
    /// `usChoice` of `POST /v1/web/session` and `POST /v1/web/choices`: the visitor's own US choice.
    public static let usChoice = Set(USChoiceRecord.CodingKeys.allCases.map(\.rawValue))
    /// `POST /demo/result`: the playground's result.
    public static let demoResult = Set(DemoResultRequest.CodingKeys.allCases.map(\.rawValue))

    /// Checks a `POST /v1/web/session` body's keys, `usChoice`'s included.
    public static func checkSession(_ body: Data) throws(InvalidField) {
        try StrictJSONObject.check(body, known: session, nested: ["usChoice": usChoice])
    }

    /// Checks a `POST /v1/web/choices` body's keys, `appConsent`'s and `usChoice`'s included.
    public static func checkChoice(_ body: Data) throws(InvalidField) {
        try StrictJSONObject.check(body, known: choice, nested: ["appConsent": appConsent, "usChoice": usChoice])
    }
}
