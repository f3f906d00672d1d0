import ConsentKit
import Foundation
import GPP

/// A US choice and the GPP string a browser keeps of it, both ways: encoded for the sections in
/// force (``encode(applicability:choice:gpc:)``) and read back from a stored string
/// (``storedChoice(_:)``). The website's CMP (`WebCMP`) and the notice playground (`NoticeDemo`)
/// record and reopen US choices by these.
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
}
