import Foundation
import TCF

/// The CMP's use of the key-value store: a decision's IAB keys and the CMP's own record of it
/// go in one change; `restore()` reads them back in one read.
///
/// The record (`ConsentKit_Decision`) keeps what the strings round down or leave out: the exact
/// created and updated times and the notice version, next to the TC string that holds the
/// choices. `ConsentKit_GDPRApplies` keeps the last region decision, whichever key generations
/// are written.
struct ConsentStorage: Sendable {
    static let decisionKey = "ConsentKit_Decision"
    static let gdprAppliesKey = "ConsentKit_GDPRApplies"
    /// consentd's last configuration answer, as JSON: the publishers' vendors and ad-tech
    /// providers for the next launch.
    static let appConfigKey = "ConsentKit_AppConfig"
    /// Set when the user is tagged as under the age of consent.
    static let underAgeKey = "ConsentKit_UnderAgeOfConsent"
    /// The CMP identity consentd's operator set (`id.version`), kept so the next launch writes
    /// it from the start.
    static let cmpKey = "ConsentKit_CMP"
    /// The user's answer to the US notice (``USPrivacyChoice``, as JSON).
    static let usChoiceKey = "ConsentKit_USPrivacyChoice"
    /// Google's restricted data processing flag for apps, `true` while a US user is opted out of
    /// sale, sharing or targeted advertising (developers.google.com/admob/ios/privacy/us-states).
    static let restrictedDataProcessingKey = "gad_rdp"
    /// Every key the CMP owns besides the IAB keys.
    static let privateKeys = [decisionKey, gdprAppliesKey, appConfigKey, underAgeKey, cmpKey, usChoiceKey, restrictedDataProcessingKey]

    let store: any KeyValueStore
    let generations: IABKeyGenerations
    /// The rules whose ``AskRules/gdprApplies(region:hasDecision:)`` says what the IAB keys
    /// publish for a region decision.
    let askRules: AskRules
    private let identity: Locked<CMPIdentity>

    init(store: any KeyValueStore, cmp: CMPIdentity, generations: IABKeyGenerations, askRules: AskRules = AskRules()) {
        self.store = store
        self.generations = generations
        self.askRules = askRules
        identity = Locked(cmp)
    }

    /// The identity written into strings and `IABTCF_CmpSdkID` now.
    var cmp: CMPIdentity { identity.withLock { $0 } }

    /// Writes `cmp` into everything written from now on.
    func adopt(_ cmp: CMPIdentity) {
        identity.withLock { $0 = cmp }
    }

    /// What `restore()` found.
    struct Restored: Sendable {
        var state: ConsentState?
        /// The user's US choice; nil when none, or when its record could not be read.
        var usChoice: USPrivacyChoice? = nil
        var gdprApplies: GDPRApplicability
        /// consentd's last configuration answer, still as JSON (decoded when first needed, off
        /// the start path).
        var appConfigJSON: String?
        /// The operator's CMP identity kept from consentd's last answer, if any.
        var cmp: CMPIdentity?
        /// Set when a record was there but could not be read; the state is then nil.
        var problem: String?
        /// Whether ConsentKit has a decision record, readable or not.
        var hasRecord: Bool { state != nil || problem != nil }
    }

    /// Announces the CMP (`IABConsent_CMPPresent`, `IABTCF_CmpSdkID`, `IABTCF_CmpSdkVersion`),
    /// touching nothing else.
    func publishPresence() {
        var changes: [String: StoredValue?] = [:]
        if generations.contains(.version2) {
            changes[IABKey.cmpSdkID] = .integer(cmp.cmpId)
            changes[IABKey.cmpSdkVersion] = .integer(cmp.cmpVersion)
        }
        if generations.contains(.version1) { changes[IABKey.cmpPresent] = .bool(true) }
        store.write(changes)
    }

    /// Writes every key for `state`, the region decision `gdprApplies` and the US keys `us`, and
    /// `also`, in one change: keys that no longer apply are removed. The IAB keys say what the ask
    /// rules make of the region (GDPR applies to a decision collected where it is unknown); the
    /// CMP's own key keeps the region decision itself. The GPP keys hold tcfeuv2 and the US
    /// sections in force; `gad_rdp` is `true` while a US user is opted out, removed otherwise.
    func write(
        _ state: ConsentState?, gdprApplies: GDPRApplicability, us: USPrivacyKeys = .none, also: [String: StoredValue?] = [:]
    ) throws(TCFEncodingError) {
        let published = askRules.gdprApplies(region: gdprApplies, hasDecision: state != nil)
        var changes = try IABKeyValues.values(for: state, gdprApplies: published, cmp: cmp, generations: generations, us: us.sections)
        changes.updateValue(us.choice.flatMap(Self.record(_:)), forKey: Self.usChoiceKey)
        changes.updateValue(us.optsOut ? .bool(true) : nil, forKey: Self.restrictedDataProcessingKey)
        changes.merge(also) { _, given in given }
        // updateValue keeps a nil (a removal); a subscript assignment of nil would drop the key.
        let record: StoredValue? = if let state { .string(try Self.record(state, cmp: cmp)) } else { nil }
        changes.updateValue(record, forKey: Self.decisionKey)
        changes.updateValue(gdprApplies.flag.map { .string($0 ? "1" : "0") }, forKey: Self.gdprAppliesKey)
        store.write(changes)
    }

    /// Keeps consentd's configuration answer, and the operator's CMP identity when it gives one,
    /// for the next launch.
    func keep(_ config: AppConfig, cmp: CMPIdentity?) {
        guard let data = try? JSONEncoder().encode(config) else { return }
        var changes: [String: StoredValue?] = [Self.appConfigKey: .string(String(decoding: data, as: UTF8.self))]
        if let cmp { changes[Self.cmpKey] = .string("\(cmp.cmpId).\(cmp.cmpVersion)") }
        store.write(changes)
    }

    /// Removes every key the CMP owns, IAB keys of both generations included, and writes
    /// `keeping` in the same change.
    func removeAll(keeping: [String: StoredValue?] = [:]) {
        var changes = IABKeyValues.removal
        for key in Self.privateKeys { changes[key] = .some(nil) }
        changes.merge(keeping) { _, kept in kept }
        store.write(changes)
    }

    /// The stored decision and region decision.
    func restore() -> Restored {
        let values = store.values(forKeys: [Self.decisionKey, Self.gdprAppliesKey, Self.appConfigKey, Self.cmpKey, Self.usChoiceKey])
        var restored = restoreTCF(values)
        restored.usChoice = values[Self.usChoiceKey]?.string.flatMap { try? JSONDecoder().decode(USPrivacyChoice.self, from: Data($0.utf8)) }
        return restored
    }

    /// The TCF decision and the region decision among `values`.
    private func restoreTCF(_ values: [String: StoredValue]) -> Restored {
        let gdpr: GDPRApplicability = switch values[Self.gdprAppliesKey]?.string {
        case "1": .applies
        case "0": .doesNotApply
        default: .undetermined
        }
        let config = values[Self.appConfigKey]?.string
        let cmp = values[Self.cmpKey]?.string.flatMap(Self.identity(kept:))
        guard let record = values[Self.decisionKey] else { return Restored(state: nil, gdprApplies: gdpr, appConfigJSON: config, cmp: cmp) }
        do {
            return Restored(state: try Self.state(fromRecord: record.string ?? ""), gdprApplies: gdpr, appConfigJSON: config, cmp: cmp)
        } catch {
            return Restored(state: nil, gdprApplies: gdpr, appConfigJSON: config, cmp: cmp, problem: "\(Self.decisionKey): \(error)")
        }
    }

    /// Another CMP's consent string stored in the app, read in one read; call it only while
    /// ConsentKit has no decision record, before writing anything.
    func foreignConsent(now: Date) -> ForeignConsent {
        ForeignConsent(values: store.values(forKeys: ForeignConsent.keys), now: now)
    }

    /// The identity in a kept `id.version`; nil when it is not one (ids 2-4095, versions 0-4095).
    static func identity(kept: String) -> CMPIdentity? {
        let parts = kept.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), let version = Int(parts[1]), (2...4095).contains(id),
              (0...4095).contains(version) else { return nil }
        return CMPIdentity(cmpId: id, cmpVersion: version)
    }

    /// A US choice's record: its JSON.
    static func record(_ choice: USPrivacyChoice) -> StoredValue? {
        (try? JSONEncoder().encode(choice)).map { .string(String(decoding: $0, as: UTF8.self)) }
    }

    /// `3|TC string|created ms|updated ms|notice version|AC string|flags`, flags being `a` for
    /// prefers ad-free, `n` for non-personalized only, and `t` (a TC string) or `v` (a v1.1
    /// string) for a decision taken over from another CMP, whose id the TC string then carries.
    static func record(_ state: ConsentState, cmp: CMPIdentity) throws(TCFEncodingError) -> String {
        record(state, tcString: try state.tcString(cmp: cmp).encoded())
    }

    /// The record of `state` around its TC string, encoded already.
    static func record(_ state: ConsentState, tcString: String) -> String {
        let takeover = switch state.takenOver?.key {
        case nil: ""
        case IABKey.consentString: "v"
        default: "t"
        }
        let flags = (state.prefersAdFree ? "a" : "") + (state.nonPersonalizedOnly ? "n" : "") + takeover
        return "3|\(tcString)|\(milliseconds(state.created))|\(milliseconds(state.updated))|\(state.noticeVersion)|"
            + "\(AdditionalConsent.string(consented: state.adTechProviderConsents, disclosed: state.disclosedAdTechProviders))|\(flags)"
    }

    static func state(fromRecord record: String) throws -> ConsentState {
        let fields = record.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 7, fields[0] == "3", let created = Int64(fields[2]), let updated = Int64(fields[3]),
              let notice = Int(fields[4]), let providers = AdditionalConsent.parse(String(fields[5])) else {
            throw RecordError(message: "not a ConsentKit decision record")
        }
        let decoded = try TCString(decoding: String(fields[1]))
        let takeoverKey: String? = fields[6].contains("t") ? IABKey.tcString : fields[6].contains("v") ? IABKey.consentString : nil
        return ConsentState(tcString: decoded).restoring(
            created: Date(timeIntervalSince1970: Double(created) / 1000),
            updated: Date(timeIntervalSince1970: Double(updated) / 1000), noticeVersion: notice,
            adTechProviderConsents: providers.consented, disclosedAdTechProviders: providers.disclosed,
            prefersAdFree: fields[6].contains("a"), nonPersonalizedOnly: fields[6].contains("n"),
            takenOver: takeoverKey.map { ConsentTakeover(cmp: CMPIdentity(cmpId: decoded.cmpId, cmpVersion: decoded.cmpVersion), key: $0) })
    }

    struct RecordError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

extension ConsentState {
    /// The same decision with the fields a TC string does not hold: the audit fields to the
    /// millisecond and the Google fields.
    func restoring(
        created: Date, updated: Date, noticeVersion: Int, adTechProviderConsents: IDSet = [], disclosedAdTechProviders: IDSet = [],
        prefersAdFree: Bool = false, nonPersonalizedOnly: Bool = false, takenOver: ConsentTakeover? = nil
    ) -> ConsentState {
        ConsentState(
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            specialFeatureOptIns: specialFeatureOptIns, vendorConsents: vendorConsents,
            vendorLegitimateInterests: vendorLegitimateInterests, publisherConsents: publisherConsents,
            publisherLegitimateInterests: publisherLegitimateInterests, numCustomPurposes: numCustomPurposes,
            customPurposeConsents: customPurposeConsents, customPurposeLegitimateInterests: customPurposeLegitimateInterests,
            disclosedVendors: disclosedVendors, vendorListVersion: vendorListVersion, tcfPolicyVersion: tcfPolicyVersion,
            publisherCC: publisherCC, purposeOneTreatment: purposeOneTreatment, useNonStandardTexts: useNonStandardTexts,
            publisherRestrictions: publisherRestrictions, consentScreen: consentScreen, consentLanguage: consentLanguage,
            noticeVersion: noticeVersion, created: created, updated: updated, adTechProviderConsents: adTechProviderConsents,
            disclosedAdTechProviders: disclosedAdTechProviders, prefersAdFree: prefersAdFree, nonPersonalizedOnly: nonPersonalizedOnly,
            takenOver: takenOver)
    }
}
