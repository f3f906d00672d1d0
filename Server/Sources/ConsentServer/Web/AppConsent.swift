import ConsentKit
import ConsentRequests
import ConsentdAPI
import Foundation
import TCF

/// The consent of the app whose web view shows the page (`appConsent` of `POST /v1/web/choices`),
/// and what consentd takes of it (docs/web-consent.md, "What consentd records from an app").
///
/// Any script on a page can claim to be the app, so the page key never suffices: the app's own
/// subject token comes with the string (`subjectToken`, with its `subjectId`) and the event goes
/// to that subject of the app, never to the page's visitor. The string must be one this
/// operator's CMP made (consentd's CMP id) and may not be created or updated in the future
/// beyond the clock skew events are allowed (``CheckedConsentEvent/allowedClockSkew``).
struct AppConsent: Sendable {
    /// The app's TC string.
    var tcString: String
    /// The app's Additional Consent string, if any.
    var addtlConsent: String?
    /// The app's subject token (`ckt_…`), minted for ``subjectId``.
    var subjectToken: String?
    /// The app's subject, which the event is recorded for.
    var subjectId: String?

    /// The app's consent as the body carries it.
    init(_ wire: WebChoiceRequest.AppConsent) {
        tcString = wire.tcString
        addtlConsent = wire.addtlConsent
        subjectToken = wire.subjectToken
        subjectId = wire.subjectId
    }

    /// The app's own credential: its subject token. A page key (or a page's own subject token
    /// sent as `credential`) never records an app's consent.
    func credential() throws -> String {
        guard let subjectToken, subjectToken.hasPrefix("ckt_") else {
            throw APIError(.forbidden, "subject_credential_required",
                           "an app's consent is recorded only with the app's subject token (appConsent.subjectToken, "
                           + "with appConsent.subjectId); a page key alone cannot record it",
                           field: "appConsent.subjectToken")
        }
        return subjectToken
    }

    /// The string decoded, when this operator's CMP (`cmp`) made it and it was not created or
    /// updated after `now` plus the allowed clock skew; 422 otherwise.
    func decoded(cmp: CMPIdentity, now: Date) throws -> TCString {
        let decoded: TCString
        do {
            decoded = try TCString(decoding: tcString)
        } catch {
            throw APIError(.unprocessableContent, "invalid_tc_string", "the app's TC string does not decode: \(error)", field: "appConsent.tcString")
        }
        guard decoded.cmpId == cmp.cmpId else {
            throw APIError(.unprocessableContent, "invalid_tc_string",
                           "the app's TC string was made by CMP \(decoded.cmpId); consentd records only strings of its own CMP (\(cmp.cmpId))",
                           field: "appConsent.tcString")
        }
        if let future = WebCMP.futureDate(of: decoded, now: now) {
            throw APIError(.unprocessableContent, "invalid_tc_string", "the app's TC string is refused: \(future)", field: "appConsent.tcString")
        }
        return decoded
    }
}
