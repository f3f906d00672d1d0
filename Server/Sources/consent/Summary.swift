import TCF

/// A readable, multi-line summary of a decoded consent string, for a person at a terminal.
enum Summary {
    /// The summary of `value`.
    static func text(for value: ConsentString) -> String {
        switch value {
        case .v1(let v1): text(for: v1)
        case .v2(let v2): text(for: v2)
        }
    }

    private static func text(for tc: TCString) -> String {
        var rows: [(String, String)] = [
            ("created", "\(tc.created)"),
            ("last updated", "\(tc.lastUpdated)"),
            ("CMP", "\(tc.cmpId), version \(tc.cmpVersion), screen \(tc.consentScreen)"),
            ("language", tc.consentLanguage),
            ("vendor list", "version \(tc.vendorListVersion), TCF policy \(tc.tcfPolicyVersion)"),
            ("scope", tc.isServiceSpecific ? "service-specific" : "global (not service-specific)"),
            ("publisher country", tc.publisherCC),
            ("purpose 1 treatment", tc.purposeOneTreatment ? "purpose 1 not disclosed" : "standard"),
            ("standard texts", tc.useNonStandardTexts ? "customised by the publisher" : "unchanged"),
            ("special features", ids(tc.specialFeatureOptIns)),
            ("purpose consent", ids(tc.purposesConsent)),
            ("purpose LI", ids(tc.purposesLITransparency)),
            ("vendor consent", ids(tc.vendorConsents)),
            ("vendor LI", ids(tc.vendorLegitimateInterests)),
        ]
        for restriction in tc.publisherRestrictions {
            rows.append(("restriction", "purpose \(restriction.purposeId) \(name(restriction.restrictionType)): \(ids(restriction.vendorIds))"))
        }
        if let disclosed = tc.disclosedVendors { rows.append(("disclosed vendors", ids(disclosed))) }
        if let allowed = tc.allowedVendors { rows.append(("allowed vendors", ids(allowed))) }
        if let publisher = tc.publisherTC {
            rows.append(("publisher consent", ids(publisher.pubPurposesConsent)))
            rows.append(("publisher LI", ids(publisher.pubPurposesLITransparency)))
            rows.append(("custom purposes", "\(publisher.numCustomPurposes) defined; consent \(ids(publisher.customPurposesConsent)); LI \(ids(publisher.customPurposesLITransparency))"))
        }
        return render("TCF v2 TC string", rows, tc.validation)
    }

    private static func text(for v1: ConsentStringV1) -> String {
        var rows: [(String, String)] = [
            ("created", "\(v1.created)"),
            ("last updated", "\(v1.lastUpdated)"),
            ("CMP", "\(v1.cmpId), version \(v1.cmpVersion), screen \(v1.consentScreen)"),
            ("language", v1.consentLanguage),
            ("vendor list", "version \(v1.vendorListVersion)"),
            ("purposes allowed", ids(v1.purposesAllowed)),
            ("max vendor id", "\(v1.maxVendorId)"),
            ("vendor consent", ids(v1.vendorConsents)),
        ]
        if !v1.extraSegments.isEmpty { rows.append(("extra segments", v1.extraSegments.joined(separator: " "))) }
        return render("TCF v1.1 consent string", rows, v1.validation)
    }

    private static func render(_ title: String, _ rows: [(String, String)], _ findings: [ValidationFinding]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        var lines = [title]
        for (label, value) in rows {
            lines.append("  " + label + String(repeating: " ", count: width - label.count) + "  " + value)
        }
        lines.append(findings.isEmpty ? "  valid for use: no policy findings" : "  policy findings:")
        lines += findings.map { "    - \($0)" }
        return lines.joined(separator: "\n")
    }

    private static func ids(_ set: IDSet) -> String {
        set.isEmpty ? "none" : "\(set.count): \(set)"
    }

    private static func name(_ type: PublisherRestriction.RestrictionType) -> String {
        switch type {
        case .notAllowed: "not allowed"
        case .requireConsent: "requires consent"
        case .requireLegitimateInterest: "requires legitimate interest"
        case .undefined: "undefined restriction type 3"
        }
    }
}
