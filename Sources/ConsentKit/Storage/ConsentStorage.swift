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
    /// The publisher's vendors as consentd last named them, a binary string.
    static let publisherVendorsKey = "ConsentKit_PublisherVendors"
    /// Every key the CMP owns besides the IAB keys.
    static let privateKeys = [decisionKey, gdprAppliesKey, publisherVendorsKey]

    let store: any KeyValueStore
    let cmp: CMPIdentity
    let generations: IABKeyGenerations

    /// What `restore()` found.
    struct Restored: Sendable {
        var state: ConsentState?
        var gdprApplies: GDPRApplicability
        /// The publisher's vendors consentd named last, if it ever did.
        var publisherVendors: IDSet?
        /// Set when a record was there but could not be read; the state is then nil.
        var problem: String?
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

    /// Writes every key for `state` and `gdprApplies` in one change: keys that no longer apply
    /// are removed.
    func write(_ state: ConsentState?, gdprApplies: GDPRApplicability) throws(TCFEncodingError) {
        var changes = try IABKeyValues.values(for: state, gdprApplies: gdprApplies, cmp: cmp, generations: generations)
        // updateValue keeps a nil (a removal); a subscript assignment of nil would drop the key.
        let record: StoredValue? = if let state { .string(try Self.record(state, cmp: cmp)) } else { nil }
        changes.updateValue(record, forKey: Self.decisionKey)
        changes.updateValue(gdprApplies.flag.map { .string($0 ? "1" : "0") }, forKey: Self.gdprAppliesKey)
        store.write(changes)
    }

    /// Keeps the publisher's vendors consentd named, for the next launch.
    func keepPublisherVendors(_ ids: IDSet) {
        store.write([Self.publisherVendorsKey: .string(BinaryString.encode(ids, length: ids.max))])
    }

    /// Removes every key the CMP owns, IAB keys of both generations included.
    func removeAll() {
        var changes = IABKeyValues.removal
        for key in Self.privateKeys { changes[key] = .some(nil) }
        store.write(changes)
    }

    /// The stored decision and region decision.
    func restore() -> Restored {
        let values = store.values(forKeys: Self.privateKeys)
        let gdpr: GDPRApplicability = switch values[Self.gdprAppliesKey]?.string {
        case "1": .applies
        case "0": .doesNotApply
        default: .undetermined
        }
        let vendors = values[Self.publisherVendorsKey]?.string.flatMap(BinaryString.decode)
        guard let record = values[Self.decisionKey] else { return Restored(state: nil, gdprApplies: gdpr, publisherVendors: vendors) }
        do {
            return Restored(state: try Self.state(fromRecord: record.string ?? ""), gdprApplies: gdpr, publisherVendors: vendors)
        } catch {
            return Restored(state: nil, gdprApplies: gdpr, publisherVendors: vendors, problem: "\(Self.decisionKey): \(error)")
        }
    }

    /// `2|TC string|created ms|updated ms|notice version`.
    static func record(_ state: ConsentState, cmp: CMPIdentity) throws(TCFEncodingError) -> String {
        let tcString = try state.tcString(cmp: cmp).encoded()
        return "2|\(tcString)|\(milliseconds(state.created))|\(milliseconds(state.updated))|\(state.noticeVersion)"
    }

    static func state(fromRecord record: String) throws -> ConsentState {
        let fields = record.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0] == "2", let created = Int64(fields[2]), let updated = Int64(fields[3]),
              let notice = Int(fields[4]) else {
            throw RecordError(message: "not a ConsentKit decision record")
        }
        let decoded = try TCString(decoding: String(fields[1]))
        return ConsentState(tcString: decoded).restoring(
            created: Date(timeIntervalSince1970: Double(created) / 1000),
            updated: Date(timeIntervalSince1970: Double(updated) / 1000), noticeVersion: notice)
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
    /// The same decision with the audit fields a TC string does not hold to the millisecond.
    func restoring(created: Date, updated: Date, noticeVersion: Int) -> ConsentState {
        ConsentState(
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            specialFeatureOptIns: specialFeatureOptIns, vendorConsents: vendorConsents,
            vendorLegitimateInterests: vendorLegitimateInterests, publisherConsents: publisherConsents,
            publisherLegitimateInterests: publisherLegitimateInterests, numCustomPurposes: numCustomPurposes,
            customPurposeConsents: customPurposeConsents, customPurposeLegitimateInterests: customPurposeLegitimateInterests,
            disclosedVendors: disclosedVendors, vendorListVersion: vendorListVersion, tcfPolicyVersion: tcfPolicyVersion,
            publisherCC: publisherCC, purposeOneTreatment: purposeOneTreatment, useNonStandardTexts: useNonStandardTexts,
            publisherRestrictions: publisherRestrictions, consentScreen: consentScreen, consentLanguage: consentLanguage,
            noticeVersion: noticeVersion, created: created, updated: updated)
    }
}
