/// A policy-level problem with a consent string that decoded fine.
///
/// Structural errors throw ``TCFDecodingError``; these do not. The string is readable, but a
/// vendor or CMP should not rely on it as it stands: it was made under a retired policy, in a
/// retired scope, or breaks a rule of the current TCF policy.
public struct ValidationFinding: Sendable, Hashable, CustomStringConvertible {
    /// Which rule the string breaks.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A TCF v1.1 string: v1 strings have not been valid since 2020-09-30.
        case versionRetired
        /// `IsServiceSpecific` is 0: global-scope strings have not been valid since 2021-09-01.
        case notServiceSpecific
        /// `TcfPolicyVersion` is below 4: strings made under TCF 2.0/2.1 policy have not been
        /// valid since 2023-09-30.
        case policyVersionRetired
        /// Legitimate interest is signalled for a purpose where TCF 2.2 allows only consent
        /// (purposes 1, 3, 4, 5 and 6).
        case legitimateInterestNotAllowed
        /// A publisher restriction uses `RestrictionType` 3, which the spec leaves undefined.
        case undefinedRestrictionType
        /// No DisclosedVendors segment: it is mandatory since TCF 2.3.
        case disclosedVendorsMissing
        /// An AllowedVendors segment (type 2): it belonged to TCF v2.0 and was removed in 2021.
        case allowedVendorsRetired
        /// `LastUpdated` is earlier than `Created`.
        case lastUpdatedBeforeCreated
        /// A v1 string carries text after a `.`, which v1 does not define; it was kept verbatim.
        case extraSegments
    }

    /// Which rule the string breaks.
    public let code: Code
    /// What exactly was found, for a person.
    public let message: String

    /// A finding of `code` explained by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

extension TCString {
    /// The purposes TCF 2.2 allows only on consent, never on legitimate interest: 1 (store
    /// and access information) and 3-6 (personalised advertising and content profiles and
    /// selection).
    ///
    /// Sources, in
    /// `shared/reference/specs/TCFv2_IAB Tech Lab - Consent string and vendor list formats v2.md`:
    /// purpose 1 must be registered on consent and cannot be flexible (the note under the
    /// publisher restrictions' `RestrictionType`); TCF 2.2 removed legitimate interest for
    /// purposes 3 to 6 (section "Why was support for legitimate interest for purposes 3 to 6
    /// deprecated?", and `PurposesLITransparency`, whose bits for them must be 0). The
    /// Implementation Guidelines' "What changed in v2.2?" says the same. Applied whatever
    /// ``policyVersion`` says: strings of earlier policies are no longer valid (since 2023).
    public static let consentOnlyPurposes: IDSet = [1, 3, 4, 5, 6]

    /// The policy-level problems of this string; empty when it is fit for use.
    public var validation: [ValidationFinding] {
        var findings: [ValidationFinding] = []
        if !isServiceSpecific {
            findings.append(.init(.notServiceSpecific, "IsServiceSpecific is 0; global-scope strings are invalid since 2021-09-01"))
        }
        if tcfPolicyVersion < 4 {
            findings.append(.init(
                .policyVersionRetired,
                "TcfPolicyVersion \(tcfPolicyVersion) is below 4; such strings are invalid since 2023-09-30"))
        } else {
            let purposes = purposesLITransparency.filter(Self.consentOnlyPurposes.contains)
            let publisher = publisherTC?.pubPurposesLITransparency.filter(Self.consentOnlyPurposes.contains) ?? []
            if !purposes.isEmpty {
                findings.append(.init(
                    .legitimateInterestNotAllowed,
                    "PurposesLITransparency sets purposes \(IDSet(purposes)), which allow consent only"))
            }
            if !publisher.isEmpty {
                findings.append(.init(
                    .legitimateInterestNotAllowed,
                    "PubPurposesLITransparency sets purposes \(IDSet(publisher)), which allow consent only"))
            }
        }
        for restriction in publisherRestrictions where restriction.restrictionType == .undefined {
            findings.append(.init(
                .undefinedRestrictionType, "purpose \(restriction.purposeId) has a restriction of the undefined type 3"))
        }
        if disclosedVendors == nil {
            findings.append(.init(.disclosedVendorsMissing, "no DisclosedVendors segment; it is mandatory since TCF 2.3"))
        }
        if allowedVendors != nil {
            findings.append(.init(.allowedVendorsRetired, "AllowedVendors segment (TCF v2.0) is retired since 2021"))
        }
        if lastUpdated < created {
            findings.append(.init(.lastUpdatedBeforeCreated, "LastUpdated \(lastUpdated) is before Created \(created)"))
        }
        return findings
    }
}

extension ConsentStringV1 {
    /// The policy-level problems of this string: always at least ``ValidationFinding/Code/versionRetired``.
    public var validation: [ValidationFinding] {
        var findings = [ValidationFinding(.versionRetired, "TCF v1.1 strings are invalid since 2020-09-30; use a v2 TC string")]
        if lastUpdated < created {
            findings.append(.init(.lastUpdatedBeforeCreated, "LastUpdated \(lastUpdated) is before Created \(created)"))
        }
        if !extraSegments.isEmpty {
            findings.append(.init(
                .extraSegments, "\(extraSegments.count) segment(s) after \".\" are not part of v1 and were kept uninterpreted"))
        }
        return findings
    }
}
