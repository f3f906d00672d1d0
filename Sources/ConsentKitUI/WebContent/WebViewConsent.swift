import ConsentKit
import ConsentKitFormats
import Foundation
import IABConsentReader
import TCF

/// The app's consent, as its own web views take it: a script that gives the page a read-only
/// `__tcfapi` (or hands the consent to ConsentKit's web CMP when the page runs it), and the
/// `gdpr` / `gdpr_consent` / `addtl_consent` URL parameters.
///
/// A value is a snapshot of the stored IAB keys (`IABTCF_TCString`, `IABTCF_AddtlConsent`,
/// `IABTCF_gdprApplies`, `IABTCF_CmpSdkID`, `IABTCF_CmpSdkVersion`, `IABTCF_PolicyVersion`, and
/// the GPP keys `IABGPP_HDR_GppString` and `IABGPP_GppSID`) and a pure function of them: read it again after the consent changes (`ConsentWebView` does so
/// on iOS).
///
/// ```swift
/// let consent = manager.webViewConsent                  // or WebViewConsent(keys: store, vendorList: list)
/// let secret = HandOverSecret()                         // keep it for updates; never show it to the page
/// let script = WKUserScript(source: consent.documentStartScript(secret: secret), injectionTime: .atDocumentStart,
///                           forMainFrameOnly: true, in: .page)
/// webView.load(URLRequest(url: consent.url(URL(string: "https://example.com/article")!)))
/// ```
///
/// **Only for the app's own service.** TC strings are service- or group-specific: hand the
/// app's consent only to web content of the same service or group whose vendors are a subset
/// of the app's, never to third-party sites (docs/web-consent.md).
///
/// **Never generous.** A stored `IABTCF_TCString` that does not decode counts as no decision:
/// the payload then has no TC string, no `tcData` and no Additional Consent string, and the
/// URL no `gdpr_consent` or `addtl_consent`; `gdprApplies` is still the stored one.
///
/// **Bounded by the vendor list.** ``tcData`` is cut to the vendor list the app holds
/// (``TCData/Bounds``), so the payload's size follows the list, whatever the stored string names;
/// without a vendor list there is no ``tcData`` (the page hears "no decision" until the app holds
/// one).
public struct WebViewConsent: Sendable, Equatable {
    /// `IABTCF_gdprApplies`: whether GDPR applies, or undetermined when unset.
    public let gdprApplies: GDPRApplicability
    /// `IABTCF_TCString`, exactly as stored, when it decodes; nil otherwise.
    public let tcString: String?
    /// `IABTCF_AddtlConsent`, exactly as stored, when it is not empty and the TC string decodes;
    /// nil otherwise.
    public let addtlConsent: String?
    /// The answering CMP: `IABTCF_CmpSdkID` and `IABTCF_CmpSdkVersion`, each
    /// ``CMPIdentity/development``'s when not stored.
    public let cmp: CMPIdentity
    /// The TCF policy version: the TC string's, else `IABTCF_PolicyVersion`, else 0 (unknown).
    public let tcfPolicyVersion: Int
    /// The TC string's `VendorListVersion`; nil without a TC string.
    public let gvlVersion: Int?
    /// The CMP API's `TCData` the page's `__tcfapi` answers with: built from the TC string and
    /// cut to the vendor list (``TCData/Bounds``) when GDPR applies,
    /// ``TCData/notApplicable(cmp:tcfPolicyVersion:)`` when it does not; nil while GDPR
    /// applicability is undetermined (the API must not answer then), and when GDPR applies but
    /// there is no decision, no vendor list, or the list makes the object pass
    /// ``TCData/maximumJSONSize``.
    public let tcData: TCData?
    /// What the page's `__gpp` answers (``ConsentKit/GPPData``): the stored `IABGPP_HDR_GppString`
    /// with the ids of `IABGPP_GppSID` that the string holds (`[-1]` when none); nil when no GPP
    /// string is stored or it does not decode (the page's `__gpp` then stays loading).
    public let gpp: GPPData?
    /// The payload `ConsentKitTCF.fromApp` takes, as compact JSON with sorted keys:
    /// `{addtlConsent, cmpId, cmpVersion, gdprApplies, gpp, gvlVersion, tcData, tcString,
    /// tcfPolicyVersion}` (keys in code-point order, as in ``TCData/json(idMaps:)``), with `null` for
    /// what is unknown or absent; `tcData` is ``TCData/json(idMaps:)``, `gpp` is ``ConsentKit/GPPData/json()``. Safe to place inside a
    /// `<script>` and a JavaScript source: `<`, U+2028 and U+2029 are written as `\u` escapes,
    /// so `</script>` cannot appear in it, whatever the stored strings hold.
    public let payload: String
    /// The text of the CMP APIs' script: `cmp-frames.js` (the mechanism the CMP APIs share with
    /// other frames), `gppapi.js` (`ConsentKitGPP`), then `tcfapi.js`, which defines
    /// `ConsentKitTCF` and installs both APIs for the app.
    let apiSource: String

    /// The IAB keys a value is read from.
    static let keys = [
        IABKey.tcString, IABKey.addtlConsent, IABKey.gdprApplies, IABKey.cmpSdkID, IABKey.cmpSdkVersion, IABKey.policyVersion,
        IABKey.gppString, IABKey.gppApplicableSections,
    ]

    /// Reads the consent from the IAB keys in `store`, in one read, its ``tcData`` cut to
    /// `vendorList`: pass the store the app gave its `ConsentManager` and the list it holds
    /// (``ConsentKit/ConsentManager/webViewConsent`` does).
    ///
    /// Values of the wrong type are read as `IABConsentReader` reads them (`IABTCF_gdprApplies`
    /// as 1, `"1"` or true); anything unreadable counts as absent.
    public init(keys store: any KeyValueStore, vendorList: VendorList?) {
        self.init(keys: store, vendorList: vendorList, apiSource: Self.bundledAPISource)
    }

    /// Reads the consent from `store`, with `apiSource` as the text of the CMP API's script (tests pass
    /// a placeholder).
    init(keys store: any KeyValueStore, vendorList: VendorList?, apiSource: String) {
        let values = store.values(forKeys: Self.keys)
        let snapshot = IABConsentSnapshot(values: values)
        gdprApplies = snapshot.gdprApplies
        cmp = CMPIdentity(
            cmpId: snapshot.cmpSdkID ?? CMPIdentity.development.cmpId,
            cmpVersion: snapshot.cmpSdkVersion ?? CMPIdentity.development.cmpVersion)
        let text = snapshot.tcString
        let decoded = text.flatMap { try? TCString(decoding: $0) }
        if let text, let decoded {
            tcString = text
            addtlConsent = values[IABKey.addtlConsent]?.string.flatMap { $0.isEmpty ? nil : $0 }
            gvlVersion = decoded.vendorListVersion
            tcfPolicyVersion = decoded.tcfPolicyVersion
        } else {
            tcString = nil
            addtlConsent = nil
            gvlVersion = nil
            tcfPolicyVersion = snapshot.policyVersion ?? 0
        }
        var data: TCData?
        switch gdprApplies {
        case .applies:
            if let text, let decoded, let vendorList {
                data = TCData(tcString: text, decoded: decoded, addtlConsent: addtlConsent, cmp: cmp, bounds: TCData.Bounds(vendorList: vendorList))
            }
        case .doesNotApply:
            data = .notApplicable(cmp: cmp, tcfPolicyVersion: tcfPolicyVersion)
        case .undetermined:
            break
        }
        gpp = values[IABKey.gppString]?.string.flatMap { text in
            let declared = (values[IABKey.gppApplicableSections]?.string ?? "").split(separator: "_").compactMap { Int($0) }
            guard let stored = try? GPPData(gppString: text, applicableSections: []) else { return nil }
            // Only what the string holds is in force in the page: __gpp signals ready only then.
            return try? GPPData(gppString: text, applicableSections: declared.filter(stored.sectionList.contains))
        }
        // Past the ceiling (only a hostile list gets there) the page hears no decision.
        let tcDataJSON = data.flatMap { try? $0.json() }
        tcData = tcDataJSON == nil ? nil : data
        var json = JSONWriter(capacity: 1024 + (tcDataJSON?.utf8.count ?? 0))
        json.beginObject()
        json.field("addtlConsent", addtlConsent)
        json.field("cmpId", cmp.cmpId)
        json.field("cmpVersion", cmp.cmpVersion)
        json.field("gdprApplies", gdprApplies.flag)
        json.key("gpp")
        if let gpp { json.raw(gpp.json()) } else { json.null() }
        json.field("gvlVersion", gvlVersion)
        json.key("tcData")
        if let tcDataJSON { json.raw(tcDataJSON) } else { json.null() }
        json.field("tcString", tcString)
        json.field("tcfPolicyVersion", tcfPolicyVersion)
        json.endObject()
        // Script-safe: `TCData.json()` and the writer escape `<`, U+2028 and U+2029.
        payload = json.text
        self.apiSource = apiSource
    }

    /// The URL parameters of the TC string passing convention, values unencoded: `gdpr` (`1` or
    /// `0`; left out while undetermined), `gdpr_consent` (the TC string as is) and
    /// `addtl_consent` (the Additional Consent string), each only when known.
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let flag = gdprApplies.flag { items.append(URLQueryItem(name: "gdpr", value: flag ? "1" : "0")) }
        if let tcString { items.append(URLQueryItem(name: "gdpr_consent", value: tcString)) }
        if let addtlConsent { items.append(URLQueryItem(name: "addtl_consent", value: addtlConsent)) }
        return items
    }

    /// `url` with ``queryItems`` appended, each once: parameters named `gdpr`, `gdpr_consent`
    /// or `addtl_consent` already in it are removed first (also those this value has nothing
    /// for, so a stale consent never stays), the other parameters and the fragment are kept
    /// byte for byte. Values are percent-encoded leaving only RFC 3986's unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`), so `+`, `&` and `=` are encoded and a TC or AC string reads back
    /// unchanged. A URL `URLComponents` cannot parse is returned as it is.
    public func url(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let names: Set<String> = ["gdpr", "gdpr_consent", "addtl_consent"]
        let existing = (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: true)
        var parameters = existing.filter { parameter in
            let name = String(parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            return !names.contains(name.removingPercentEncoding ?? name)
        }.map(String.init)
        let added = queryItems
        if added.isEmpty && parameters.count == existing.count { return url }
        for item in added {
            parameters.append(Self.percentEncoded(item.name) + "=" + Self.percentEncoded(item.value ?? ""))
        }
        components.percentEncodedQuery = parameters.isEmpty ? nil : parameters.joined(separator: "&")
        return components.url ?? url
    }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded (UTF-8).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xf)])
            }
        }
        return out
    }

    /// The text of `cmp/cmp-frames.js`, `cmp/gppapi.js` and `cmp/tcfapi.js` in ConsentKitUI's
    /// bundle, one after the other (`gppapi.js` first, so that the app's `ConsentKitTCF` finds
    /// `ConsentKitGPP` before any page script runs), read once; empty if any cannot be read.
    static let bundledAPISource: String = {
        guard let folder = Bundle.module.url(forResource: "cmp", withExtension: nil),
              let frames = try? String(contentsOf: folder.appendingPathComponent("cmp-frames.js"), encoding: .utf8),
              let gpp = try? String(contentsOf: folder.appendingPathComponent("gppapi.js"), encoding: .utf8),
              let api = try? String(contentsOf: folder.appendingPathComponent("tcfapi.js"), encoding: .utf8)
        else { return "" }
        return frames + "\n" + gpp + "\n" + api
    }()
}

extension ConsentManager {
    /// The consent as the app's web views take it, read from the manager's store
    /// (`configuration.store`) now and cut to the vendor list it holds (``vendorList``); read it
    /// again after each ``ConsentEvent/consentChanged(_:)`` and ``ConsentEvent/vendorListUpdated(version:)``.
    public var webViewConsent: WebViewConsent {
        WebViewConsent(keys: configuration.store, vendorList: vendorList)
    }
}
