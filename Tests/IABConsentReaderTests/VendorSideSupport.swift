import Foundation
import Testing
import TCF
@testable import IABConsentReader

// Helpers for the vendor-side tests: keys written the way a CMP writes them, straight into the
// UserDefaults suite a `UserDefaultsStore` reads.

/// Sets `keys` on the store's `UserDefaults` with its own setters (Int, String, Bool), as a
/// CMP that does not use ConsentKit would.
func cmpWrites(_ keys: [String: any Sendable], to store: UserDefaultsStore) {
    for (key, value) in keys {
        switch value {
        case let flag as Bool: store.defaults.set(flag, forKey: key)
        case let number as Int: store.defaults.set(number, forKey: key)
        case let text as String: store.defaults.set(text, forKey: key)
        default: Issue.record("unsupported test value \(value) for \(key)")
        }
    }
}

/// The snapshot a reader over a fresh suite holding `keys` takes.
func snapshot(of keys: [String: any Sendable]) throws -> IABConsentSnapshot {
    try withTestSuite { _, store in
        cmpWrites(keys, to: store)
        return IABConsentReader(store: store).snapshot()
    }
}

/// The decision for `vendor` and `purpose` with `keys` stored.
func decision(_ keys: [String: any Sendable], vendor: VendorDeclaration, purpose: Int) throws -> ProcessingDecision {
    try snapshot(of: keys).decision(for: vendor, purpose: purpose)
}

/// A binary string of `length` characters with '1' at the positions of `ids`.
func bits(_ ids: [Int], length: Int = 24) -> String {
    BinaryString.encode(IDSet(ids), length: length)
}

/// An `IABTCF_PublisherRestrictions{ID}` value: `type` ('0', '1' or '2') at each vendor of
/// `types`, '_' elsewhere, up to `length` vendors.
func restrictionString(_ types: [Int: Character], length: Int = 20) -> String {
    String((1...length).map { types[$0] ?? "_" })
}

/// v2 keys for a user who decided, GDPR applying: the given purpose and vendor signals.
func v2Keys(
    purposeConsents: [Int] = [], purposeLegitimateInterests: [Int] = [],
    vendorConsents: [Int] = [], vendorLegitimateInterests: [Int] = [],
    specialFeatureOptIns: [Int] = [], restrictions: [Int: String] = [:]
) -> [String: any Sendable] {
    var keys: [String: any Sendable] = [
        IABKey.cmpSdkID: 300, IABKey.cmpSdkVersion: 1, IABKey.policyVersion: 5, IABKey.gdprApplies: 1,
        IABKey.publisherCC: "DE", IABKey.purposeOneTreatment: 0, IABKey.useNonStandardTexts: 0,
        IABKey.tcString: "CQ-placeholder",
        IABKey.purposeConsents: bits(purposeConsents), IABKey.purposeLegitimateInterests: bits(purposeLegitimateInterests),
        IABKey.vendorConsents: bits(vendorConsents, length: 20),
        IABKey.vendorLegitimateInterests: bits(vendorLegitimateInterests, length: 20),
        IABKey.specialFeaturesOptIns: bits(specialFeatureOptIns, length: 12),
    ]
    for (purpose, value) in restrictions { keys[IABKey.publisherRestrictions(purposeId: purpose)] = value }
    return keys
}

/// Every purpose and vendor signal positive for vendor 7, purposes 1-11: what is left to
/// refuse is the rule under test.
func everySignal(restrictions: [Int: String] = [:]) -> [String: any Sendable] {
    v2Keys(
        purposeConsents: Array(1...11), purposeLegitimateInterests: Array(1...11),
        vendorConsents: [7], vendorLegitimateInterests: [7], specialFeatureOptIns: [1, 2], restrictions: restrictions)
}

/// The keys a CMP writes for `tc` (binary strings as long as the largest id of each set,
/// restrictions with '_' for "none"), GDPR applying.
func keys(for tc: TCString) -> [String: any Sendable] {
    var keys: [String: any Sendable] = [
        IABKey.cmpSdkID: tc.cmpId, IABKey.cmpSdkVersion: tc.cmpVersion, IABKey.policyVersion: tc.tcfPolicyVersion,
        IABKey.gdprApplies: 1, IABKey.publisherCC: tc.publisherCC,
        IABKey.purposeOneTreatment: tc.purposeOneTreatment ? 1 : 0, IABKey.useNonStandardTexts: tc.useNonStandardTexts ? 1 : 0,
        IABKey.tcString: "stored separately",
        IABKey.purposeConsents: BinaryString.encode(tc.purposesConsent, length: 24),
        IABKey.purposeLegitimateInterests: BinaryString.encode(tc.purposesLITransparency, length: 24),
        IABKey.specialFeaturesOptIns: BinaryString.encode(tc.specialFeatureOptIns, length: 12),
        IABKey.vendorConsents: BinaryString.encode(tc.vendorConsents, length: tc.vendorConsents.max),
        IABKey.vendorLegitimateInterests: BinaryString.encode(tc.vendorLegitimateInterests, length: tc.vendorLegitimateInterests.max),
    ]
    if let disclosed = tc.disclosedVendors { keys[IABKey.disclosedVendors] = BinaryString.encode(disclosed, length: disclosed.max) }
    for purpose in Set(tc.publisherRestrictions.map(\.purposeId)) {
        let length = tc.publisherRestrictions.filter { $0.purposeId == purpose }.map(\.vendorIds.max).max() ?? 0
        keys[IABKey.publisherRestrictions(purposeId: purpose)] = String((1...length).map { vendor -> Character in
            tc.restrictionType(vendorId: vendor, purposeId: purpose).map { Character(String($0.rawValue)) } ?? "_"
        })
    }
    return keys
}

/// A store that counts the reads a reader makes.
final class CountingStore: KeyValueStore {
    let inner: any KeyValueStore
    let reads = Locked(0)

    init(_ inner: any KeyValueStore) {
        self.inner = inner
    }

    func values(forKeys keys: [String]) -> [String: StoredValue] {
        reads.withLock { $0 += 1 }
        return inner.values(forKeys: keys)
    }

    func write(_ changes: [String: StoredValue?]) { inner.write(changes) }

    func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken { inner.observe(handler) }
}
