import ConsentKitFormats
import ConsentdAPI
import Foundation
import TCF

/// Everything about a decision that is not in the decision: how, where and for whom it was
/// made. ``event(for:received:eventId:)`` turns a decision and its context into the consent
/// event consentd stores; the app's sync, consentd's demo and its web CMP all make their events
/// here, so a choice is stored the same way wherever it was made (only ``platform``, the
/// subject and the event id tell them apart).
///
/// The decision itself carries the rest of the proof: its notice version (``ConsentState/noticeVersion``),
/// language (``ConsentState/consentLanguage``), layer (``ConsentState/consentScreen``, in the TC
/// string) and collection time (``ConsentState/updated``, to the millisecond).
public struct ConsentEventContext: Sendable {
    /// How the user decided (the proof's `method`).
    public var method: ConsentProof.Method
    /// The notice's id (the proof's `noticeId`).
    public var noticeId: String
    /// Where the user decided (the proof's `platform`).
    public var platform: ConsentProof.Platform
    /// The proof's `sdkVersion`; ConsentKit's own by default, on every platform.
    public var sdkVersion: String
    /// The CMP that encodes the strings.
    public var cmp: CMPIdentity
    /// Whether the event carries the TCF v1.1 string too (an app that writes v1 keys).
    public var writesVersion1: Bool
    /// The subject the event is about; nil asks consentd to create one.
    public var subjectId: String?
    /// consentd's answer the Google status is judged against (nil: the decision alone).
    public var appConfig: AppConfig?
    /// Whether GDPR applies where the decision was made (for the Google status).
    public var gdprApplies: GDPRApplicability
    /// The hash of the notice document the user saw (the proof's `documentHash`, see
    /// `ConsentProof.hash(ofDocument:)`); nil when no notice was shown.
    public var documentHash: String?
    /// The GPP string of the sections in force with the decision (`IABGPP_HDR_GppString`), sent
    /// as the event's `gppString`; nil for none.
    public var gppString: String?

    /// A context; the SDK version is ConsentKit's, no v1 string, no consentd answer, GDPR applying.
    public init(
        method: ConsentProof.Method, noticeId: String, platform: ConsentProof.Platform, cmp: CMPIdentity,
        sdkVersion: String = ConsentKitSDK.version, writesVersion1: Bool = false, subjectId: String? = nil,
        appConfig: AppConfig? = nil, gdprApplies: GDPRApplicability = .applies, documentHash: String? = nil, gppString: String? = nil
    ) {
        self.method = method
        self.noticeId = noticeId
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.cmp = cmp
        self.writesVersion1 = writesVersion1
        self.subjectId = subjectId
        self.appConfig = appConfig
        self.gdprApplies = gdprApplies
        self.documentHash = documentHash
        self.gppString = gppString
    }

    /// Strings received from elsewhere (an app's, handed to its web view), recorded exactly as
    /// given instead of re-encoded from the decision they decode to.
    public struct ReceivedStrings: Sendable, Equatable {
        /// The TC string.
        public var tcString: String
        /// The Additional Consent string kept with it, if any.
        public var additionalConsent: String?

        /// Strings as received.
        public init(tcString: String, additionalConsent: String?) {
            self.tcString = tcString
            self.additionalConsent = additionalConsent
        }
    }

    /// The consent event of `decision`: its TC string (encoded by ``cmp``, or `received`), the
    /// v1 string when ``writesVersion1``, the GPP string (``gppString``), the Additional Consent string
    /// (``ConsentState/additionalConsentString``), the Google choice
    /// (``GoogleAdsChoice/init(_:status:)``), the id lists and the proof.
    ///
    /// - Throws: `TCFEncodingError` when the decision does not encode.
    public func event(for decision: ConsentState, received: ReceivedStrings? = nil, eventId: UUID = UUID())
        throws(TCFEncodingError) -> ConsentEventRequest {
        let tcString = if let received { received.tcString } else { try decision.tcString(cmp: cmp).encoded() }
        let v1 = writesVersion1 ? try decision.consentStringV1(cmp: cmp).encoded() : nil
        let status = GoogleConsentStatus.of(decision, config: appConfig, gdprApplies: gdprApplies)
        let proof = ConsentProof(
            noticeId: noticeId, noticeVersion: String(decision.noticeVersion), language: decision.consentLanguage.lowercased(),
            sdkVersion: sdkVersion, platform: platform, method: method, documentHash: documentHash)
        return ConsentEventRequest(
            eventId: eventId.uuidString.lowercased(), subjectId: subjectId, collectedAt: ISO8601.format(decision.updated),
            consent: ConsentRecord(
                tcString: tcString, consentStringV1: v1, gppString: gppString, googleAdsChoice: GoogleAdsChoice(decision, status: status),
                additionalConsent: received.map(\.additionalConsent) ?? decision.additionalConsentString,
                purposeConsents: decision.purposeConsents.sorted, purposeLegitimateInterests: decision.purposeLegitimateInterests.sorted,
                specialFeatureOptins: decision.specialFeatureOptIns.sorted, vendorConsents: decision.vendorConsents.sorted,
                vendorLegitimateInterests: decision.vendorLegitimateInterests.sorted, proof: proof))
    }
}
