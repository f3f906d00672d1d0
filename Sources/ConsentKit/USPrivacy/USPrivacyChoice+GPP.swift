import GPP

extension USPrivacyChoice {
    /// The US sections `applicability` names, encoded from `choice` (nil: no answer yet) and
    /// `signals`, in id order; `[]` outside the US or where nothing applies (ids that are not US
    /// sections are left to their own writers). The one encoder of the choice, used by the SDK and
    /// by consentd (decision record 0032). For every field the section has:
    ///
    /// - Notices (`SharingNotice`, `ProcessingNotice`, the opt-out notices, the sensitive-data
    ///   notices): 1 (provided) once there is a choice, 2 before.
    /// - `SaleOptOut`, `SharingOptOut`, `TargetedAdvertisingOptOut`: 1 (opted out) when the choice
    ///   says so, or with GPC, or for a known child; else 2.
    /// - MSPA Service Provider Mode: the three opt-outs and their notices (`SaleOptOutNotice`,
    ///   `SharingOptOutNotice`, `TargetedAdvertisingOptOutNotice`) 0: nothing is sold, shared or
    ///   targeted.
    /// - `MspaCoveredTransaction` 1 covered, 2 not; `MspaOptOutOptionMode` and
    ///   `MspaServiceProviderMode` 1/2 by the mode when covered (a covered transaction without a
    ///   mode runs the opt-outs), 0 when not; `MspaMode` 1 opt-out, 2 service provider, 0 not covered.
    /// - `SensitiveDataProcessing`: where it is an opt-out (CA, UT, IA) every category 1 when
    ///   ``sensitiveDataLimited``, else 2; where it is consent every category 1 (no consent:
    ///   ConsentKit never collects sensitive-data consent).
    /// - `KnownChildSensitiveDataConsents`: every entry 1 (no consent) for a known child, else 0.
    /// - `PersonalDataConsents`, `AdditionalDataProcessingConsent`: 0.
    /// - The GPC sub-section wherever the section has one, `Gpc` = ``USPrivacySignals/gpc``.
    public static func gppSections(
        of choice: USPrivacyChoice?, applicability: GPPApplicability, signals: USPrivacySignals
    ) -> [GPPSection] {
        let ids = Set(applicability.applicableSections.compactMap(GPPSectionID.init(rawValue:)).filter(\.isUS))
        return ids.sorted().compactMap { id in
            USSection(id).map { .us(section($0, choice: choice, applicability: applicability, signals: signals)) }
        }
    }

    /// The fields of a new `section` set as ``gppSections(of:applicability:signals:)`` says.
    private static func section(
        _ section: USSection, choice: USPrivacyChoice?, applicability: GPPApplicability, signals: USPrivacySignals
    ) -> USSection {
        var section = section
        let covered = applicability.mspaCoveredTransaction
        let serviceProvider = covered && applicability.mspaMode == .serviceProvider
        let notice: USNotice = choice == nil ? .notProvided : .provided
        let forced = signals.gpc || signals.knownChild
        func optOut(_ chosen: Bool?) -> USOptOut {
            serviceProvider ? .notApplicable : chosen == true || forced ? .optedOut : .didNotOptOut
        }
        for field in section.layout.core.map(\.name) + section.layout.subsections.flatMap(\.fields).map(\.name) {
            switch field {
            case .sharingNotice, .processingNotice, .sensitiveDataProcessingOptOutNotice, .sensitiveDataLimitUseNotice,
                 .sensitiveDataOptOutNotice:
                section[field] = notice.rawValue
            case .saleOptOutNotice, .sharingOptOutNotice, .targetedAdvertisingOptOutNotice:
                section[field] = serviceProvider ? USNotice.notApplicable.rawValue : notice.rawValue
            case .saleOptOut: section.saleOptOut = optOut(choice?.saleOptOut)
            case .sharingOptOut: section.sharingOptOut = optOut(choice?.sharingOptOut)
            case .targetedAdvertisingOptOut: section.targetedAdvertisingOptOut = optOut(choice?.targetedAdvertisingOptOut)
            case .sensitiveDataProcessing:
                let count = section.layout.sensitiveDataCount
                if section.layout.sensitiveDataIsOptOut {
                    section.sensitiveDataOptOuts = Array(repeating: choice?.sensitiveDataLimited == true ? .optedOut : .didNotOptOut, count: count)
                } else {
                    section.sensitiveDataConsents = Array(repeating: .noConsent, count: count)
                }
            case .knownChildSensitiveDataConsents, .knownChildSensitiveDataConsent:
                let count = section.knownChildSensitiveDataConsents?.count ?? 0
                section.knownChildSensitiveDataConsents = Array(repeating: signals.knownChild ? .noConsent : .notApplicable, count: count)
            case .personalDataConsents: section.personalDataConsents = .notApplicable
            case .additionalDataProcessingConsent: section.additionalDataProcessingConsent = .notApplicable
            case .mspaCoveredTransaction: section.mspaCoveredTransaction = covered ? .yes : .no
            case .mspaOptOutOptionMode: section.mspaOptOutOptionMode = covered ? (serviceProvider ? .no : .yes) : .notApplicable
            case .mspaServiceProviderMode: section.mspaServiceProviderMode = covered ? (serviceProvider ? .yes : .no) : .notApplicable
            case .mspaMode: section.mspaMode = covered ? (serviceProvider ? .serviceProviderMode : .optOutOptionMode) : .notApplicable
            case .gpc: section.gpc = signals.gpc
            case .version, .mspaVersion: break
            }
        }
        return section
    }
}

extension USSectionLayout {
    /// The number of `SensitiveDataProcessing` categories (0 when the section has none).
    fileprivate var sensitiveDataCount: Int {
        for field in core + subsections.flatMap(\.fields) where field.name == .sensitiveDataProcessing {
            if case .list(let count) = field.type { return count }
        }
        return 0
    }
}
