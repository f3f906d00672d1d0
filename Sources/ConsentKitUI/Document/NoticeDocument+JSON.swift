import ConsentKitFormats
import ConsentKit
import Foundation

extension NoticeDocument {
    /// The document as the page takes it: compact JSON, written directly (Foundation's
    /// `JSONEncoder` took 28 ms for the 813 vendors of GVL v3 #45; this takes a tenth of that).
    /// `JSONDecoder` reads it back into an equal document (tested).
    public func json() -> Data {
        Data(jsonBytes())
    }

    /// The document for a website's page (consentd's `POST /v1/web/session`), where every byte
    /// delays the notice: its vendors carry only what the first layer and the switches need (id,
    /// name, purposes by basis, special purposes, features, special features), and
    /// `vendorDetailsUrl` says where the page loads the rest (``vendorDetailsJSON()``) when the
    /// vendor list or a vendor's details open. An app's documents keep everything inline (``json()``).
    public func webJSON(vendorDetailsUrl: String) -> Data {
        Data(jsonBytes(vendorDetailsUrl: vendorDetailsUrl))
    }

    /// What ``webJSON(vendorDetailsUrl:)`` leaves out of each vendor, by vendor:
    /// `{"vendors":[{"id":…,"dataCategories":…,"retention":…,"privacyPolicyUrl":…,…}]}`.
    public func vendorDetailsJSON() -> Data {
        var out = JSONWriter()
        out.beginObject()
            out.key("vendors")
            out.beginArray()
            for vendor in vendors {
                out.beginObject()
                    out.field("id", vendor.id)
                    Self.writeDetails(of: vendor, to: &out)
                out.endObject()
            }
            out.endArray()
        out.endObject()
        return Data(out.bytes)
    }

    /// The bytes of ``json()``, or of ``webJSON(vendorDetailsUrl:)`` when `vendorDetailsUrl` is given.
    func jsonBytes(vendorDetailsUrl: String? = nil) -> [UInt8] {
        var out = JSONWriter()
        out.beginObject()
            if let vendorDetailsUrl { out.field("vendorDetailsUrl", vendorDetailsUrl) }
            out.field("protocol", self.protocol)
            out.field("mode", mode.rawValue)
            out.field("language", language)
            out.field("direction", direction)
            out.key("languageFallback")
            if let languageFallback {
                out.beginObject()
                    out.field("requested", languageFallback.requested)
                    out.field("reason", languageFallback.reason)
                out.endObject()
            } else {
                out.null()
            }
            out.key("texts")
            out.beginObject()
            for (key, text) in texts.sorted(by: { $0.key < $1.key }) { out.field(key, text) }
            out.endObject()
            out.key("publisher")
            out.beginObject()
                out.field("name", publisher.name)
                out.field("appName", publisher.appName)
                out.field("logo", publisher.logo)
                out.field("privacyPolicyUrl", publisher.privacyPolicyUrl)
            out.endObject()
            out.key("cmp")
            out.beginObject()
                out.field("id", cmp.id)
                out.field("version", cmp.version)
            out.endObject()
            out.key("theme")
            out.beginObject()
                out.field("cornerRadius", theme.cornerRadius)
                out.field("fontFamily", theme.fontFamily)
                out.field("buttonStyle", theme.buttonStyle.rawValue)
                for (name, palette) in [("light", theme.light), ("dark", theme.dark)] {
                    out.key(name)
                    out.beginObject()
                        out.field("background", palette.background)
                        out.field("surface", palette.surface)
                        out.field("text", palette.text)
                        out.field("mutedText", palette.mutedText)
                        out.field("primary", palette.primary)
                        out.field("onPrimary", palette.onPrimary)
                        out.field("border", palette.border)
                        out.field("link", palette.link)
                    out.endObject()
                }
            out.endObject()
            out.field("layout", layout.rawValue)
            out.field("noticeVersion", noticeVersion)
            out.field("scope", scope)
            out.field("startLayer", startLayer)
            out.field("allowsDismissal", allowsDismissal)
            out.key("adFree")
            out.beginObject()
            out.field("offered", adFree.offered)
            out.endObject()
            out.field("choiceStorageDays", choiceStorageDays)
            out.field("vendorListVersion", vendorListVersion)
            out.field("tcfPolicyVersion", tcfPolicyVersion)
            for (name, section) in [
                ("purposes", purposes), ("specialPurposes", specialPurposes), ("features", features),
                ("specialFeatures", specialFeatures), ("dataCategories", dataCategories),
            ] {
                out.key(name)
                out.beginObject()
                    for (id, declaration) in section.sorted(by: { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }) {
                        out.key(id)
                        out.beginObject()
                            out.field("name", declaration.name)
                            out.field("description", declaration.description)
                            out.key("illustrations")
                            out.beginArray()
                            for text in declaration.illustrations { out.string(text) }
                            out.endArray()
                        out.endObject()
                    }
                out.endObject()
            }
            out.key("stacks")
            out.beginArray()
                for stack in stacks {
                    out.beginObject()
                        out.field("id", stack.id)
                        out.field("name", stack.name)
                        out.field("description", stack.description)
                        out.field("purposes", stack.purposes)
                        out.field("specialFeatures", stack.specialFeatures)
                    out.endObject()
                }
            out.endArray()
            out.key("vendors")
            out.beginArray()
            for vendor in vendors { Self.write(vendor, to: &out, details: vendorDetailsUrl == nil) }
            out.endArray()
            out.key("adTechProviders")
            out.beginArray()
                for provider in adTechProviders {
                    out.beginObject()
                        out.field("id", provider.id)
                        out.field("name", provider.name)
                        out.field("privacyPolicyUrl", provider.privacyPolicyUrl)
                    out.endObject()
                }
            out.endArray()
            out.key("current")
            if let us = current?.us {
                out.beginObject()
                    out.key("us")
                    out.beginObject()
                        out.field("saleOptOut", us.saleOptOut)
                        out.field("sharingOptOut", us.sharingOptOut)
                        out.field("targetedAdvertisingOptOut", us.targetedAdvertisingOptOut)
                        out.field("sensitiveDataLimited", us.sensitiveDataLimited)
                    out.endObject()
                out.endObject()
            } else if let current {
                out.beginObject()
                    out.field("purposeConsents", current.purposeConsents)
                    out.field("purposeLegitimateInterests", current.purposeLegitimateInterests)
                    out.field("specialFeatureOptIns", current.specialFeatureOptIns)
                    out.field("vendorConsents", current.vendorConsents)
                    out.field("vendorLegitimateInterests", current.vendorLegitimateInterests)
                    out.field("adTechProviderConsents", current.adTechProviderConsents)
                out.endObject()
            } else {
                out.null()
            }
            out.key("google")
            if let google {
                out.beginObject()
                out.field("personalizedOffered", google.personalizedOffered)
                out.field("nonPersonalizedOffered", google.nonPersonalizedOffered)
                out.field("refusalOffered", google.refusalOffered)
                out.field("appIcon", google.appIcon)
                out.endObject()
            } else {
                out.null()
            }
            if let us {
                out.key("us")
                out.beginObject()
                    out.field("section", us.section)
                    out.field("state", us.state)
                    out.field("limitSensitive", us.limitSensitive)
                    out.field("knownChild", us.knownChild)
                    out.field("gpc", us.gpc)
                    out.field("serviceProvider", us.serviceProvider)
                out.endObject()
            }
        out.endObject()
        return out.bytes
    }

    private static func write(_ vendor: borrowing Vendor, to out: inout JSONWriter, details: Bool) {
        out.beginObject()
            out.field("id", vendor.id)
            out.field("name", vendor.name)
            out.field("purposes", vendor.purposes)
            out.field("legIntPurposes", vendor.legIntPurposes)
            out.field("legitimateInterest", vendor.legitimateInterest)
            out.field("flexiblePurposes", vendor.flexiblePurposes)
            out.field("specialPurposes", vendor.specialPurposes)
            out.field("features", vendor.features)
            out.field("specialFeatures", vendor.specialFeatures)
            if details { writeDetails(of: vendor, to: &out) }
        out.endObject()
    }

    /// A vendor's details: what the page shows when its details open.
    private static func writeDetails(of vendor: borrowing Vendor, to out: inout JSONWriter) {
        out.field("dataCategories", vendor.dataCategories)
        out.key("retention")
        if let retention = vendor.retention {
            out.beginObject()
                out.field("std", retention.std)
                out.field("purposes", retention.purposes)
                out.field("specialPurposes", retention.specialPurposes)
            out.endObject()
        } else {
            out.null()
        }
        out.field("privacyPolicyUrl", vendor.privacyPolicyUrl)
        out.field("legIntClaimUrl", vendor.legIntClaimUrl)
        out.field("usesCookies", vendor.usesCookies)
        out.field("cookieMaxAgeSeconds", vendor.cookieMaxAgeSeconds)
        out.field("cookieRefresh", vendor.cookieRefresh)
        out.field("usesNonCookieAccess", vendor.usesNonCookieAccess)
        out.field("storageDisclosureUrl", vendor.storageDisclosureUrl)
    }
}
