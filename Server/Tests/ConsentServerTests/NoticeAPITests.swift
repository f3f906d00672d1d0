@testable import ConsentServer
import CompressNIO
import Crypto
import ConsentKitUI
import Foundation
import GPP
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TCF
import Testing

/// `/notice/*` (the notice's files) and `/demo` (the notice on a sample publisher, its results stored).
@Suite("Notice files and the demo")
struct NoticeAPITests {
    @Test("the notice's files: their media types, ETag and 304, gzip, five minutes of cache, a same-origin policy")
    func noticeFiles() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            for (file, type) in [("notice.html", "text/html"), ("notice.css", "text/css"), ("notice.js", "text/javascript")] {
                let response = try await client.send(.get, "/notice/\(file)")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(file)")
                #expect(response.headers[.cacheControl] == "public, max-age=300")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
                let etag = try #require(response.headers[.eTag])
                let again = try await client.send(.get, "/notice/\(file)", headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                let zipped = try await client.send(.get, "/notice/\(file)", headers: [.acceptEncoding: "gzip"])
                #expect(zipped.headers[.contentEncoding] == "gzip")
                var body = zipped.body
                let plain = try body.decompress(with: .gzip())
                #expect(plain.readableBytes == response.body.readableBytes)
            }
            #expect(try await client.send(.get, "/notice/../Package.swift").status == .notFound)
            #expect(try await client.send(.get, "/notice/texts").status == .notFound)
        }
    }

    @Test("every file notice.html links, its style and each of its scripts, is served as ConsentKitUI ships it")
    func linkedNoticeFiles() async throws {
        let folder = try #require(NoticeResources.directory)
        let linked = NoticeAssets.linkedFiles(of: try Data(contentsOf: folder.appendingPathComponent("notice.html")))
        #expect(linked.first == "notice.css" && linked.contains("notice-model.js") && linked.last == "notice.js", "\(linked)")
        let server = try await TestServer.make()
        try await server.test { client async throws in
            for file in linked {
                let response = try await client.send(.get, "/notice/\(file)")
                #expect(response.status == .ok, "\(file)")
                #expect(Data(response.body.readableBytesView) == (try Data(contentsOf: folder.appendingPathComponent(file))), "\(file)")
            }
        }
    }

    @Test("the images the notice's scripts show are served as ConsentKitUI ships them: the US notice's Your Privacy Choices icon")
    func noticeImages() async throws {
        let folder = try #require(NoticeResources.directory)
        #expect(NoticeAssets.noticeImages == ["privacy-choices.svg"])
        let script = String(decoding: try Data(contentsOf: folder.appendingPathComponent("notice-us.js")), as: UTF8.self)
        #expect(script.contains("src: 'privacy-choices.svg'"), "the file notice-us.js shows")
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.get, "/notice/privacy-choices.svg")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(Data(response.body.readableBytesView) == (try Data(contentsOf: folder.appendingPathComponent("privacy-choices.svg"))))
        }
    }

    @Test("notice.html as consentd serves it holds its style and scripts, each block named by its SHA-256 in the header policy and the page's own")
    func noticePageInlinesItsFiles() async throws {
        let folder = try #require(NoticeResources.directory)
        let shipped = try Data(contentsOf: folder.appendingPathComponent("notice.html"))
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.get, "/notice/notice.html")
            let html = String(decoding: response.body.readableBytesView, as: UTF8.self)
            let header = try #require(response.headers[.contentSecurityPolicy])
            let meta = try #require(html.firstMatch(of: /http-equiv="Content-Security-Policy" content="([^"]*)"/)).1
            #expect(!html.contains("<script src=") && !html.contains(#"rel="stylesheet""#))
            for name in NoticeAssets.linkedFiles(of: shipped) where name.hasSuffix(".js") || name.hasSuffix(".css") {
                let content = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
                let block = name.hasSuffix(".js") ? "<script>\(content)</script>" : "<style>\(content)</style>"
                #expect(html.contains(block), "\(name) is in the page as it ships")
                let source = "'sha256-" + Data(SHA256.hash(data: Data(content.utf8))).base64EncodedString() + "'"
                let directive = name.hasSuffix(".js") ? "script-src" : "style-src"
                for policy in [header, String(meta)] {
                    let sources = policy.split(separator: ";").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(directive) }
                    #expect(sources?.contains(source) == true, "\(directive) of \(policy) names \(name)")
                }
            }
            #expect(!header.contains("unsafe-inline") && !meta.contains("unsafe-inline"))
        }
    }

    @Test("a page is not inlined when a file would end its block early or its policy already sets script-src")
    func inliningRefusals() {
        let page = Data(#"<head><meta http-equiv="Content-Security-Policy" content="default-src 'self'"></head><script src="a.js"></script>"#.utf8)
        #expect(throws: InlinedPage.Failure.self) { try InlinedPage(page: page, files: ["a.js": Data("let s = '</SCRIPT>';".utf8)]) }
        #expect(throws: InlinedPage.Failure.self) { try InlinedPage(page: page, files: [:]) }
        let strict = Data(#"<meta http-equiv="Content-Security-Policy" content="script-src 'none'"><script src="a.js"></script>"#.utf8)
        #expect(throws: InlinedPage.Failure.self) { try InlinedPage(page: strict, files: ["a.js": Data("1".utf8)]) }
        let inlined = try? InlinedPage(page: page, files: ["a.js": Data("1".utf8)])
        #expect(inlined.map { String(decoding: $0.html, as: UTF8.self) }
            == #"<head><meta http-equiv="Content-Security-Policy" content="script-src 'self' 'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='; style-src 'self'; default-src 'self'"></head><script>1</script>"#)
    }

    @Test("a page's links to its own folder are read from src and href; URLs with a scheme, absolute paths and fragments are not")
    func linkedFilesOfAPage() {
        let html = Data(##"<link rel="icon" href="data:,"><link href="a.css"><a href="#top"></a><img src="/x.png"><script src="b.js"></script><script src="https://cdn.example/c.js"></script><script src="b.js"></script>"##.utf8)
        #expect(NoticeAssets.linkedFiles(of: html) == ["a.css", "b.js"], "in the order of the page, each once")
    }

    @Test("the demo builds the notice's document with ConsentKitUI: 20 vendors or all 813, Google's form (English, saying so, in a language the list lacks)")
    func demoDocument() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            #expect(try await client.send(.get, "/demo").headers[.contentType]?.hasPrefix("text/html") == true)
            let twenty = try await client.send(.post, "/demo/document", json: #"{"mode":"tcf","vendors":"20"}"#)
            #expect(twenty.status == .ok)
            #expect((twenty.object["vendors"] as? [Any])?.count == 20)
            #expect(twenty.object["protocol"] as? Int == 1)
            let all = try await client.send(.post, "/demo/document", json: #"{"vendors":"all"}"#)
            #expect((all.object["vendors"] as? [Any])?.count == 813)
            // Google's form shows the list's purposes, and no official translation is Arabic: English, saying so.
            let google = try await client.send(.post, "/demo/document", json: #"{"mode":"google","language":"ar"}"#)
            #expect(google.object["language"] as? String == "en" && google.object["direction"] as? String == "ltr")
            #expect((google.object["languageFallback"] as? [String: Any])?["requested"] as? String == "ar")
            let bad = try await client.send(.post, "/demo/document", json: #"{"vendors":"7"}"#)
            #expect(bad.status == .badRequest && bad.errorField == "vendors")
        }
    }

    @Test("the demo site's stub tag carries its key and the form's region, language and storage; other values are left out")
    func demoSiteTags() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let page = String(buffer: try await client.send(.get, "/demo?region=eea&lang=pt-BR&storage=localStorage").body)
            #expect(page.contains(#"<script src="/cmp/stub.js" data-key="\#(key)" data-debug-region="eea" data-language="pt-BR" data-storage="localStorage"></script>"#))
            #expect(page.contains(#"<script src="/cmp/cmp.js" async></script>"#))
            let hostile = String(buffer: try await client.send(.get, "/demo?region=mars&lang=%22%3E%3Cscript%3E&storage=disk").body)
            #expect(hostile.contains(#"<script src="/cmp/stub.js" data-key="\#(key)"></script>"#))
            #expect(!hostile.contains("{{"), "every placeholder is filled")
        }
    }

    @Test("a result is checked against its document, decided as the SDK decides, and stored as a consent event")
    func demoResult() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(.playground, server.consentd.keys)
            let save = #"""
                {"options":{"vendors":"20"},"credential":"\#(key)","message":{"protocol":1,"type":"result","action":"save","layer":2,
                 "language":"en","noticeVersion":3,"choices":{"purposeConsents":[1,3],"purposeLegitimateInterests":[2],
                 "specialFeatureOptIns":[],"vendorConsents":[755],"vendorLegitimateInterests":[755],"adTechProviderConsents":[89]}}}
                """#
            let response = try await client.send(.post, "/demo/result", json: save)
            #expect(response.status == .ok)
            let decoded = try #require(response.object["decoded"] as? [String: Any])
            #expect(decoded["purposeConsents"] as? [Int] == [1, 3])
            #expect(decoded["vendorConsents"] as? [Int] == [755])
            #expect((decoded["disclosedVendors"] as? [Int])?.count == 20)
            #expect(decoded["consentScreen"] as? Int == 2)
            #expect(response.object["addtlConsent"] as? String == "2~89~dv.1051.2677")
            let event = try #require(response.object["event"] as? [String: Any])
            let subjectId = try #require(event["subjectId"] as? String)
            #expect(response.object["subjectToken"] is String)
            let stored = try await server.consentd.store.current(appId: NoticeDemo.appId, subjectId: subjectId)
            #expect(stored?.consent.tcString == response.object["tcString"] as? String)

            let refused = try await client.send(.post, "/demo/result", json: save.replacingOccurrences(of: "[1,3]", with: "[1,3,99]"))
            #expect(refused.status == .unprocessableContent && refused.errorCode == "notice_result_refused")
            // Bodies of the wrong shape are refused, never a crash (schemathesis found options "AAA").
            for body in [#"{"options":"AAA","message":{},"credential":"\#(key)"}"#, #"{"options":[null,null],"message":{},"credential":"\#(key)"}"#,
                         #"{"options":{},"message":"x","credential":"\#(key)"}"#, #"{"options":{},"message":[1],"credential":"\#(key)"}"#,
                         #"{"options":{},"message":{},"credential":"\#(key)","subjectId":3}"#, "[]", "3"] {
                let answer = try await client.send(.post, "/demo/result", json: body)
                #expect(answer.status == .badRequest, "\(body)")
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test("in a US region the demo builds the US notice at collection of the region's section; a region it does not know is refused, naming the field")
    func demoUSDocument() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            for (region, section, state) in [("us-ca", "usca", "CA" as String?), ("us-va", "usva", "VA"), ("us-wa", "usnat", "WA"), ("us", "usnat", nil)] {
                let document = try await client.send(.post, "/demo/document", json: #"{"region":"\#(region)","mode":"google","vendors":"all"}"#)
                #expect(document.status == .ok, "\(region)")
                #expect(document.object["mode"] as? String == "us", "\(region): the US notice whatever mode says")
                let us = try #require(document.object["us"] as? [String: Any], "\(region)")
                #expect(us["section"] as? String == section && us["state"] as? String == state, "\(region)")
                #expect((document.object["vendors"] as? [Any])?.isEmpty != false, "\(region): no TCF content")
            }
            let eea = try await client.send(.post, "/demo/document", json: #"{"region":"eea"}"#)
            #expect(eea.object["mode"] as? String == "tcf")
            for region in ["us-zz", "US-CA", "us-", "mars", "us-cal"] {
                let bad = try await client.send(.post, "/demo/document", json: #"{"region":"\#(region)"}"#)
                #expect(bad.status == .badRequest && bad.errorField == "region", "\(region)")
            }
        }
    }

    @Test("a US result is stored as a US choice with the GPP string of the section in force, which the answer decodes, and reopens on it")
    func demoUSResult() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(.playground, server.consentd.keys)
            let optOut = #"""
                {"options":{"region":"us-ca"},"credential":"\#(key)","message":{"protocol":1,"type":"result","action":"optOut","layer":1,
                 "language":"en","noticeVersion":3}}
                """#
            let response = try await client.send(.post, "/demo/result", json: optOut)
            #expect(response.status == .ok)
            #expect(response.object["action"] as? String == "optOut" && response.object["tcString"] == nil)
            let gppString = try #require(response.object["gppString"] as? String)
            let section = try #require(try GPPString(decoding: gppString).us(.usca))
            #expect(section.saleOptOut == .optedOut && section.sharingOptOut == .optedOut)
            let gpp = try #require(response.object["gpp"] as? [String: Any])
            #expect(gpp["applicableSections"] as? [Int] == [8] && gpp["gppString"] as? String == gppString)
            let parsed = try #require((gpp["parsedSections"] as? [String: Any])?["usca"] as? [[String: Any]])
            #expect(parsed.first?["SaleOptOut"] as? Int == 1)
            let event = try #require(response.object["event"] as? [String: Any])
            let subjectId = try #require(event["subjectId"] as? String)
            let stored = try #require(try await server.consentd.store.currentJSON(appId: NoticeDemo.appId, subjectId: subjectId))
            #expect(stored.contains(gppString) && stored.contains(#""saleOptOut":true"#), "\(stored)")

            // The settings reopen on the stored string's choice: every opt-out on.
            let reopened = try await client.send(.post, "/demo/document", json: #"{"region":"us-ca","reopen":true,"gppString":"\#(gppString)"}"#)
            let current = try #require((reopened.object["current"] as? [String: Any])?["us"] as? [String: Any])
            #expect(current["saleOptOut"] as? Bool == true && current["sharingOptOut"] as? Bool == true)
            #expect(reopened.object["startLayer"] as? String == "purposes")

            // A TCF answer is not one the US notice offers.
            let refused = try await client.send(.post, "/demo/result", json: optOut.replacingOccurrences(of: "optOut", with: "acceptAll"))
            #expect(refused.status == .unprocessableContent && refused.errorCode == "notice_result_refused")
        }
    }

    @Test("with the demo off, /demo does not exist")
    func demoOff() async throws {
        let server = try await TestServer.make { $0.demo = false }
        try await server.test { client async throws in
            #expect(try await client.send(.get, "/demo").status == .notFound)
            #expect(try await client.send(.get, "/notice/notice.js").status == .ok)
        }
    }
}

/// `GET /v1/vendor-list/storage/{vendorId}`: what it refuses without fetching anything.
@Suite("Storage disclosures")
struct StorageDisclosureAPITests {
    @Test("an unknown vendor, a deleted vendor or a bad id: nothing is fetched")
    func refusals() async throws {
        let list = try VendorList(jsonData: gvlFixture("gvl-v3_vendor-list-v45_2024-03-21.json"))
        let deleted = try #require(list.vendors.values.first { $0.isDeleted() && $0.deviceStorageDisclosureUrl != nil })
        let server = try await TestServer.make()
        try await server.test { client async throws in
            #expect(try await client.send(.get, "/v1/vendor-list/storage/4000").status == .notFound)
            #expect(try await client.send(.get, "/v1/vendor-list/storage/\(deleted.id)").status == .notFound)
            let bad = try await client.send(.get, "/v1/vendor-list/storage/abc")
            #expect(bad.status == .badRequest && bad.errorField == "vendorId")
        }
    }

    @Test("only https is fetched, and http to the loopback address")
    func fetchable() {
        #expect(StorageDisclosures.fetchable(URL(string: "https://vendor.example/ds.json")!))
        #expect(StorageDisclosures.fetchable(URL(string: "http://127.0.0.1:8080/ds.json")!))
        #expect(!StorageDisclosures.fetchable(URL(string: "http://vendor.example/ds.json")!))
        #expect(!StorageDisclosures.fetchable(URL(string: "file:///etc/passwd")!))
        #expect(!StorageDisclosures.fetchable(URL(string: "ftp://vendor.example/ds.json")!))
    }
}
