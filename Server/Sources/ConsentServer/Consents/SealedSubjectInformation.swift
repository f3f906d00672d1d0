import ConsentKitFormats
import ConsentdAPI
import Crypto
import Foundation

/// An event's subject information as consentd stores it, the way it stores subject ids: never in
/// clear.
///
/// - ``hash``: HMAC-SHA256 of the information's canonical JSON over the app id, under a key
///   derived from the server secret. It goes into the event's hash-chained record, so the chain
///   covers the information, and into the event's retry fingerprint.
/// - ``sealed``: the canonical JSON encrypted with AES-256-GCM under another key derived from
///   the server secret, bound to the app and the event id (so it cannot be moved to another
///   event), in base64. Kept in `consent_events.subject_information`, read back only for the
///   subject's history and export, and deleted by an erasure.
struct SealedSubjectInformation: Sendable, Equatable {
    /// The keyed hash, in hex.
    var hash: String
    /// The AES-GCM box (nonce, ciphertext, tag), in base64.
    var sealed: String

    /// Seals `information` for the event `eventId` of `appId`.
    init(_ information: SubjectInformation, appId: String, eventId: String, secret: ServerSecret) throws {
        let json = Data(information.canonicalJSON.utf8)
        var message = Data(appId.utf8)
        message.append(0)
        message.append(json)
        hash = Data(HMAC<SHA256>.authenticationCode(for: message, using: secret.subjectInformationHashKey)).hexString
        let box = try AES.GCM.seal(json, using: secret.subjectInformationKey, authenticating: Self.binding(appId: appId, eventId: eventId))
        guard let combined = box.combined else { throw StoreError.subjectInformationUnreadable(eventId) }
        sealed = combined.base64EncodedString()
    }

    /// Opens what ``sealed`` holds for the event `eventId` of `appId`.
    static func open(_ sealed: String, appId: String, eventId: String, secret: ServerSecret) throws -> SubjectInformation {
        do {
            guard let combined = Data(base64Encoded: sealed) else { throw StoreError.subjectInformationUnreadable(eventId) }
            let json = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: secret.subjectInformationKey,
                                        authenticating: binding(appId: appId, eventId: eventId))
            return try JSONDecoder().decode(SubjectInformation.self, from: json)
        } catch {
            throw StoreError.subjectInformationUnreadable(eventId)
        }
    }

    private static func binding(appId: String, eventId: String) -> Data {
        var data = Data(appId.utf8)
        data.append(0)
        data.append(contentsOf: eventId.utf8)
        return data
    }
}

extension ServerSecret {
    /// The key of subject information's keyed hash, derived from the subject-id key.
    var subjectInformationHashKey: SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: subjectKey, info: Data("consentd subject information hash v1".utf8), outputByteCount: 32)
    }

    /// The AES-256-GCM key subject information is encrypted with, derived from the subject-id key.
    var subjectInformationKey: SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: subjectKey, info: Data("consentd subject information v1".utf8), outputByteCount: 32)
    }
}

extension SubjectInformation {
    /// The information as canonical JSON (keys sorted, absent fields left out).
    var canonicalJSON: String {
        var json = JSONWriter(capacity: 256, escaping: .standard)
        json.beginObject()
        if let email { json.field("email", email) }
        if let firstName { json.field("firstName", firstName) }
        if let fullName { json.field("fullName", fullName) }
        if let lastName { json.field("lastName", lastName) }
        if let verified { json.field("verified", verified) }
        json.endObject()
        return json.text
    }
}
