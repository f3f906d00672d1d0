import ConsentKit
import ConsentdAPI
import Foundation
import GPP

/// A US choice and the GPP string a browser keeps of it, both ways: encoded for the sections in
/// force (``encode(applicability:choice:gpc:)``) and read back from a stored string
/// (``storedChoice(_:)``). The website's CMP (`WebCMP`) and the notice playground (`NoticeDemo`)
/// record and reopen US choices by these; the website's CMP reads the visitor's own choice first
/// (``visitorChoice(own:storedString:)``, decision record 0046).
enum USGPP {
    /// The US sections in force, encoded from `choice` (nil: none yet) and the GPC signal by
    /// ConsentKit's one encoder (`USPrivacyChoice.gppSections(of:applicability:signals:)`):
    /// a website knows no child, so `knownChild` is false.
    static func encode(applicability: GPPApplicability, choice: USPrivacyChoice?, gpc: Bool) throws -> GPPData {
        let sections = USPrivacyChoice.gppSections(of: choice, applicability: applicability, signals: USPrivacySignals(gpc: gpc, knownChild: false))
        return try GPPData(GPPString(sections: sections), applicableSections: applicability.applicableSections)
    }

    /// The visitor's US choice as a stored GPP string holds it: its first US section's opt-outs
    /// (a visitor who moved to another state keeps their choice), read back only to be encoded
    /// again for the sections in force now. A section without a notice provided holds no choice
    /// (the string of a page view before any); so does a string that does not decode, or holds no
    /// US section: nil. Sharing and targeted advertising stand for each other where a section has
    /// only one of them (California's "sharing" is cross-context behavioural advertising). The
    /// string carries no notice version, language or time: the choice says 0, `en` and the
    /// epoch, which the encoder does not read.
    static func storedChoice(_ text: String?) -> USPrivacyChoice? {
        guard let text, !text.isEmpty, let gpp = try? GPPString(decoding: text) else { return nil }
        for case .us(let section) in gpp.sections {
            let notices = [section.sharingNotice, section.processingNotice, section.saleOptOutNotice, section.sharingOptOutNotice,
                           section.targetedAdvertisingOptOutNotice]
            guard notices.contains(.provided) else { continue }
            let sharing = section.sharingOptOut ?? section.targetedAdvertisingOptOut
            let targeted = section.targetedAdvertisingOptOut ?? section.sharingOptOut
            return USPrivacyChoice(
                saleOptOut: section.saleOptOut == .optedOut, sharingOptOut: sharing == .optedOut, targetedAdvertisingOptOut: targeted == .optedOut,
                sensitiveDataLimited: section.sensitiveDataOptOuts.map { !$0.isEmpty && $0.allSatisfy { $0 == .optedOut } } ?? false,
                noticeVersion: 0, language: "en", decided: Date(timeIntervalSince1970: 0))
        }
        return nil
    }

    /// The visitor's US choice a page view or a choice is built on: their own answer as the page
    /// keeps it (`own`, `consentkit-us-choice`: before Global Privacy Control was applied), else
    /// the one the stored GPP string holds (``storedChoice(_:)``: a page of a CMP older than the
    /// own answer kept only the string). Such a string may hold opt-outs that GPC forced
    /// (``possiblyForced(_:)``); they are kept as the choice all the same, the side of the doubt
    /// that never makes an opt-in the visitor did not give, and the page view asks the visitor
    /// again once the signal is off (`WebCMP`, decision record 0046). The own answer
    /// carries no notice version, language or time: 0, `en` and the epoch, as for a string.
    static func visitorChoice(own: USChoiceRecord?, storedString: String?) -> USPrivacyChoice? {
        guard let own else { return storedChoice(storedString) }
        return USPrivacyChoice(
            saleOptOut: own.saleOptOut, sharingOptOut: own.sharingOptOut, targetedAdvertisingOptOut: own.targetedAdvertisingOptOut,
            sensitiveDataLimited: own.sensitiveDataLimited, noticeVersion: 0, language: "en", decided: Date(timeIntervalSince1970: 0))
    }

    /// The visitor's own answer as the page keeps it and the API carries it
    /// (``ConsentdAPI/USChoiceRecord``): `choice`'s four opt-outs.
    static func record(of choice: USPrivacyChoice) -> USChoiceRecord {
        USChoiceRecord(saleOptOut: choice.saleOptOut, sharingOptOut: choice.sharingOptOut,
                       targetedAdvertisingOptOut: choice.targetedAdvertisingOptOut, sensitiveDataLimited: choice.sensitiveDataLimited)
    }

    /// Whether the opt-outs a stored GPP string holds (``storedChoice(_:)``) say nothing of the
    /// visitor's own answer: its first US section with a notice provided opts out of sale,
    /// sharing or targeted advertising and says `Gpc` 1, so the string was written while Global
    /// Privacy Control forced those opt-outs (the web's notice offers no opt-out of its own under
    /// GPC). False for a string that holds no choice, holds no such opt-out, says `Gpc` 0, or
    /// whose section has no GPC sub-section (VA, UT, FL, IA, TN, IN, KY, RI: it cannot tell, and
    /// its opt-outs are read as the visitor's, decision record 0046).
    static func possiblyForced(_ text: String?) -> Bool {
        guard let text, let choice = storedChoice(text), choice.optsOutOfAds, let gpp = try? GPPString(decoding: text) else { return false }
        for case .us(let section) in gpp.sections {
            let notices = [section.sharingNotice, section.processingNotice, section.saleOptOutNotice, section.sharingOptOutNotice,
                           section.targetedAdvertisingOptOutNotice]
            guard notices.contains(.provided) else { continue }
            return section.gpc == true
        }
        return false
    }
}
