import Foundation
import TCF

/// Another CMP's consent string, found in the store when ConsentKit has no decision of its own:
/// the decision it records, or why it cannot be one.
///
/// `IABTCF_TCString` is read first, then `IABConsent_ConsentString`; the first that is a valid
/// string of its key's version becomes the decision. Valid means: it decodes, it is the key's
/// version (2 under `IABTCF_TCString`, 1 under `IABConsent_ConsentString`), its `CmpId` is one
/// the IAB can assign (2-4095), and its `LastUpdated` is not in the future. Policy-level
/// problems (``ValidationFinding``) do not stop a takeover: the ask rules judge the decision
/// (an older policy version, vendors added since, its age) like any other.
struct ForeignConsent: Sendable {
    /// The decision taken over, marked with ``ConsentState/takenOver``; nil when none was valid.
    var decision: ConsentState?
    /// The policy-level findings of the string taken over.
    var findings: [ValidationFinding] = []
    /// The strings that could not be taken over: key and reason.
    var rejected: [(key: String, reason: String)] = []
    /// The other CMP's region decision (`IABTCF_gdprApplies`, else `IABConsent_SubjectToGDPR`:
    /// 1 or 0 as a number, a string or a Bool); undetermined when neither holds one.
    var gdprApplies: GDPRApplicability = .undetermined

    /// The keys read.
    static let keys = [IABKey.tcString, IABKey.consentString, IABKey.gdprApplies, IABKey.subjectToGDPR]

    /// How far a string's `LastUpdated` may lie ahead of the device's clock (clocks differ;
    /// `LastUpdated` is rounded to the day): one day.
    static let clockTolerance: TimeInterval = 86_400

    /// Reads both keys from `values` (key to stored value) and judges them at `now`.
    init(values: [String: StoredValue], now: Date) {
        for key in [IABKey.gdprApplies, IABKey.subjectToGDPR] where gdprApplies == .undetermined {
            switch values[key] {
            case .integer(1), .string("1"), .bool(true): gdprApplies = .applies
            case .integer(0), .string("0"), .bool(false): gdprApplies = .doesNotApply
            default: break
            }
        }
        for key in [IABKey.tcString, IABKey.consentString] {
            guard let value = values[key] else { continue }
            guard decision == nil else { break }
            do {
                let (state, findings) = try Self.decision(from: value, key: key, now: now)
                decision = state
                self.findings = findings
            } catch {
                rejected.append((key, error.message))
            }
        }
    }

    private static func decision(
        from value: StoredValue, key: String, now: Date
    ) throws(Rejection) -> (ConsentState, [ValidationFinding]) {
        guard let text = value.string else { throw Rejection(message: "a \(value) where a consent string belongs") }
        let decoded: ConsentString
        do {
            decoded = try ConsentString(decoding: text)
        } catch {
            throw Rejection(message: "does not decode: \(error)")
        }
        let header: (cmpId: Int, cmpVersion: Int, lastUpdated: TCFTimestamp)
        let state: (ConsentTakeover) -> ConsentState
        switch decoded {
        case .v2(let string) where key == IABKey.tcString:
            header = (string.cmpId, string.cmpVersion, string.lastUpdated)
            state = { ConsentState(tcString: string, takenOver: $0) }
        case .v1(let string) where key == IABKey.consentString:
            header = (string.cmpId, string.cmpVersion, string.lastUpdated)
            state = { ConsentState(consentStringV1: string, takenOver: $0) }
        case .v1:
            throw Rejection(message: "a v1.1 consent string, where a TC string (version 2) belongs")
        case .v2:
            throw Rejection(message: "a v2 TC string, where a v1.1 consent string belongs")
        }
        guard (2...4095).contains(header.cmpId) else {
            throw Rejection(message: "CmpId \(header.cmpId) is not one the IAB assigns (2-4095)")
        }
        guard header.lastUpdated.date.timeIntervalSince(now) <= clockTolerance else {
            throw Rejection(message: "LastUpdated \(header.lastUpdated) is in the future")
        }
        let takeover = ConsentTakeover(cmp: CMPIdentity(cmpId: header.cmpId, cmpVersion: header.cmpVersion), key: key)
        return (state(takeover), decoded.validation)
    }

    struct Rejection: Error {
        var message: String
    }
}
