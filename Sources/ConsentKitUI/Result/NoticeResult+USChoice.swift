import ConsentKit
import Foundation

extension NoticeResult {
    /// The US choice this result records, made at `date`: its opt-outs (``us``, the host's rules
    /// applied), the notice version and language shown. Nil outside US mode and for a dismissed
    /// notice.
    public func usChoice(at date: Date) -> USPrivacyChoice? {
        us.map {
            USPrivacyChoice(saleOptOut: $0.saleOptOut, sharingOptOut: $0.sharingOptOut, targetedAdvertisingOptOut: $0.targetedAdvertisingOptOut,
                            sensitiveDataLimited: $0.sensitiveDataLimited, noticeVersion: noticeVersion, language: language, decided: date)
        }
    }

    /// The US choice as the user gave it, made at `date`: ``usOwn`` (before GPC or a known child
    /// forced any opt-out), the notice version and language shown. Nil where ``usChoice(at:)`` is.
    public func usOwnChoice(at date: Date) -> USPrivacyChoice? {
        usOwn.map {
            USPrivacyChoice(saleOptOut: $0.saleOptOut, sharingOptOut: $0.sharingOptOut, targetedAdvertisingOptOut: $0.targetedAdvertisingOptOut,
                            sensitiveDataLimited: $0.sensitiveDataLimited, noticeVersion: noticeVersion, language: language, decided: date)
        }
    }
}
