import TCF

extension IABConsentSnapshot {

    /// Whether `vendor` may process personal data for `purpose`, and on which legal basis.
    ///
    /// The TCF v2.2 rules, in the order of the Implementation Guidelines ("How to determine
    /// legal bases from the TC String?"):
    ///
    /// 1. GDPR: does not apply → allowed; undetermined → refused (a vendor that needs a legal
    ///    basis has none until the CMP decides; observe the reader and ask again).
    /// 2. A restriction of type 0 refuses the purpose, flexible or not. An unreadable
    ///    `IABTCF_PublisherRestrictions{purpose}` refuses it too: it might have held one.
    /// 3. The legal basis: the one the vendor registered for the purpose, unless a restriction
    ///    requires the other (type 1: consent, type 2: legitimate interest). The vendor can
    ///    follow it only if the purpose is flexible; otherwise a restriction requiring the basis
    ///    it registered is ignored, one requiring the other basis refuses, and one on a purpose
    ///    it did not declare refuses (spec, RestrictionType). Without a restriction a flexible
    ///    purpose keeps its default basis: a consent signal does not help a legitimate-interest
    ///    vendor.
    /// 4. Legitimate interest is refused for purposes 1, 3, 4, 5 and 6.
    /// 5. Consent needs purpose consent and vendor consent; legitimate interest needs the
    ///    purpose's and the vendor's legitimate-interest signals.
    ///
    /// **Purpose one treatment.** When `IABTCF_PurposeOneTreatment` is 1, purpose 1 was not
    /// shown and its consent bit is 0. This decision does not guess the law of the publisher's
    /// country: it refuses with ``RefusalReason/purposeOneNotDisclosed(publisherCC:)``, so a
    /// vendor whose counsel says that country needs no consent for purpose 1 can act on that
    /// reason deliberately.
    ///
    /// With v1 keys (``source`` is ``ConsentSignalSource/version1``), `purpose` is a v1 purpose
    /// id and only consent can be established.
    public func decision(for vendor: VendorDeclaration, purpose: Int) -> ProcessingDecision {
        switch gdprApplies {
        case .doesNotApply: return .allowed(.gdprDoesNotApply)
        case .undetermined: return .refused(.gdprApplicabilityUndetermined)
        case .applies: break
        }
        guard (1...IDSet.maxID).contains(vendor.id) else { return .refused(.invalidVendorId) }
        let restrictionKey = IABKey.publisherRestrictions(purposeId: purpose)
        if malformedKeys.contains(restrictionKey) { return .refused(.malformedSignal(key: restrictionKey)) }

        let basis: LegalBasis
        switch legalBasis(for: vendor, purpose: purpose) {
        case .basis(let found): basis = found
        case .refused(let reason): return .refused(reason)
        }
        if basis == .legitimateInterest, TCString.consentOnlyPurposes.contains(purpose) {
            return .refused(.legitimateInterestNotPermitted)
        }

        switch basis {
        case .consent:
            guard purposeConsents.contains(purpose) else {
                if purpose == 1, purposeOneTreatment { return .refused(.purposeOneNotDisclosed(publisherCC: publisherCC)) }
                return .refused(refusal(.noPurposeConsent, unlessMalformed: purposeConsentsKey))
            }
            guard vendorConsents.contains(vendor.id) else {
                return .refused(refusal(.noVendorConsent, unlessMalformed: vendorConsentsKey))
            }
        case .legitimateInterest:
            guard purposeLegitimateInterests.contains(purpose) else {
                return .refused(refusal(.noPurposeLegitimateInterest, unlessMalformed: IABKey.purposeLegitimateInterests))
            }
            guard vendorLegitimateInterests.contains(vendor.id) else {
                return .refused(refusal(.noVendorLegitimateInterest, unlessMalformed: IABKey.vendorLegitimateInterests))
            }
        }
        return .allowed(.legalBasis(basis))
    }

    /// Whether `vendor` may use special feature `specialFeature`: the GDPR does not apply, or
    /// the vendor declared the feature and the user opted in to it. (A special feature is used
    /// for some purpose; ask ``decision(for:purpose:)`` about that purpose too.)
    public func decision(for vendor: VendorDeclaration, specialFeature: Int) -> ProcessingDecision {
        switch gdprApplies {
        case .doesNotApply: return .allowed(.gdprDoesNotApply)
        case .undetermined: return .refused(.gdprApplicabilityUndetermined)
        case .applies: break
        }
        guard vendor.specialFeatures.contains(specialFeature) else { return .refused(.notDeclared) }
        guard specialFeatureOptIns.contains(specialFeature) else {
            return .refused(refusal(.noSpecialFeatureOptIn, unlessMalformed: IABKey.specialFeaturesOptIns))
        }
        return .allowed(.specialFeatureOptIn)
    }

    /// Whether `vendor` may process personal data for `purpose`: ``decision(for:purpose:)``
    /// without the reason.
    public func mayProcess(vendor: VendorDeclaration, purpose: Int) -> Bool {
        decision(for: vendor, purpose: purpose).isAllowed
    }

    /// Whether `vendor` may use special feature `specialFeature`:
    /// ``decision(for:specialFeature:)`` without the reason.
    public func mayUse(vendor: VendorDeclaration, specialFeature: Int) -> Bool {
        decision(for: vendor, specialFeature: specialFeature).isAllowed
    }

    /// The legal basis a vendor must use for a purpose, or why it cannot process at all.
    private enum BasisResolution {
        case basis(LegalBasis)
        case refused(RefusalReason)
    }

    /// The legal basis `vendor` must use for `purpose` under the publisher's restriction.
    private func legalBasis(for vendor: VendorDeclaration, purpose: Int) -> BasisResolution {
        let restriction = restrictionType(vendorId: vendor.id, purposeId: purpose)
        if restriction == .notAllowed { return .refused(.notAllowedByPublisher) }
        guard let registered = vendor.defaultBasis(for: purpose) else { return .refused(.notDeclared) }
        let flexible = vendor.flexiblePurposes.contains(purpose)
        switch restriction {
        case nil:
            return .basis(registered)
        case .requireConsent:
            return registered == .consent || flexible ? .basis(.consent) : .refused(.publisherRequiresConsent)
        case .requireLegitimateInterest:
            return registered == .legitimateInterest || flexible
                ? .basis(.legitimateInterest) : .refused(.publisherRequiresLegitimateInterest)
        case .notAllowed, .undefined:
            // Type 3 never comes out of a restriction key ('3' makes the key malformed); refuse
            // anyway rather than guess.
            return .refused(.notAllowedByPublisher)
        }
    }

    /// `reason`, or ``RefusalReason/malformedSignal(key:)`` when `key` could not be read.
    private func refusal(_ reason: RefusalReason, unlessMalformed key: String) -> RefusalReason {
        malformedKeys.contains(key) ? .malformedSignal(key: key) : reason
    }

    /// The key the purpose consents came from.
    private var purposeConsentsKey: String {
        source == .version1 ? IABKey.parsedPurposeConsents : IABKey.purposeConsents
    }

    /// The key the vendor consents came from.
    private var vendorConsentsKey: String {
        source == .version1 ? IABKey.parsedVendorConsents : IABKey.vendorConsents
    }
}
