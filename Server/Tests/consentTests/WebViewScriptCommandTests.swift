import Foundation
import Testing

/// `consent webview-script`, run as a browser test runs it.
@Suite struct WebViewScriptCommandTests {
    static let v2Example = CommandLineTests.v2Example

    static let secret = "0123456789abcdef0123456789abcdef"

    @Test func theScriptIsTheBundledAPIHandedThePayloadAndTheSecret() throws {
        let script = try Consent.run(["webview-script", "--tc-string", Self.v2Example, "--gdpr-applies", "1", "--secret", Self.secret])
        let payload = try Consent.run(["webview-script", "--tc-string", Self.v2Example, "--gdpr-applies", "1", "--payload"])
        #expect(script.status == 0 && payload.status == 0)
        #expect(script.output.hasPrefix("(function (consentKitAppHandOver) {\n"))
        #expect(script.output.hasSuffix("\n})({\"credential\":null,\"payload\":" + payload.output.dropLast() + ",\"secret\":\"\(Self.secret)\"});\n"))
        let update = try Consent.run(["webview-script", "--tc-string", Self.v2Example, "--gdpr-applies", "1", "--secret", Self.secret, "--update"])
        #expect(update.output == "window.ConsentKitTCF && ConsentKitTCF.fromApp(" + payload.output.dropLast() + ", \"\(Self.secret)\");\n")
    }

    @Test func theAppsCredentialTakesAllThreeOptions() throws {
        let script = try Consent.run(["webview-script", "--consentd", "http://127.0.0.1:8080/", "--subject-id", "u-1", "--subject-token", "ckt_x.y"])
        #expect(script.status == 0 && script.output.contains(#"{"credential":{"consentd":"http://127.0.0.1:8080","subjectId":"u-1","subjectToken":"ckt_x.y"}"#))
        let partial = try Consent.run(["webview-script", "--consentd", "http://127.0.0.1:8080"])
        #expect(partial.status != 0 && partial.error.contains("all three"))
        let secret = try Consent.run(["webview-script", "--secret", "short"])
        #expect(secret.status != 0 && secret.error.contains("--secret takes"))
    }

    @Test func thePayloadCarriesTheOptionsAsAnAppStoresThem() throws {
        let result = try Consent.run([
            "webview-script", "--tc-string", Self.v2Example, "--addtl-consent", "2~1.35~dv.9", "--gdpr-applies", "1",
            "--cmp-id", "300", "--cmp-version", "7", "--payload",
        ])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["tcString"] as? String == Self.v2Example)
        #expect(object["addtlConsent"] as? String == "2~1.35~dv.9")
        #expect(object["gdprApplies"] as? Bool == true)
        #expect(object["cmpId"] as? Int == 300 && object["cmpVersion"] as? Int == 7)
        let tcData = try #require(object["tcData"] as? [String: Any])
        #expect(tcData["cmpId"] as? Int == 300)
        #expect(tcData["tcString"] as? String == Self.v2Example)
    }

    @Test func withoutGDPRAppliesItIsUndeterminedAndTheCMPIsTheDevelopmentOne() throws {
        let result = try Consent.run(["webview-script", "--payload"])
        #expect(result.output == #"{"addtlConsent":null,"cmpId":4095,"cmpVersion":1,"gdprApplies":null,"gpp":null,"gvlVersion":null,"tcData":null,"tcString":null,"tcfPolicyVersion":0}"# + "\n")
    }

    @Test func theGPPStringAndItsSectionsInForceGoToThePayloadAsGPPsState() throws {
        let result = try Consent.run(["webview-script", "--gpp-string", "DBABBg~BVVqAAEABgA.QA", "--gpp-sid", "8", "--payload"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let gpp = try #require(object["gpp"] as? [String: Any])
        #expect(gpp["gppString"] as? String == "DBABBg~BVVqAAEABgA.QA" && gpp["applicableSections"] as? [Int] == [8])
        #expect(((gpp["parsedSections"] as? [String: Any])?["usca"] as? [[String: Any]])?.first?["SaleOptOut"] as? Int == 1)
    }

    @Test func aStringThatDoesNotDecodeIsNoConsentAndSaysSo() throws {
        let result = try Consent.run(["webview-script", "--tc-string", "not-a-string</script>", "--gdpr-applies", "1", "--payload"])
        #expect(result.status == 0)
        #expect(result.output.contains(#""tcString":null"#) && !result.output.contains("script"))
        #expect(result.error.contains("does not decode"))
    }

    @Test func theURLGetsTheParametersOnce() throws {
        let result = try Consent.run([
            "webview-script", "--tc-string", Self.v2Example, "--addtl-consent", "2~1.35~dv.9", "--gdpr-applies", "1",
            "--url", "https://news.example.com/a?gdpr=0&id=7#c",
        ])
        #expect(result.output == "https://news.example.com/a?id=7&gdpr=1&gdpr_consent=\(Self.v2Example)&addtl_consent=2~1.35~dv.9#c\n")
    }

    @Test func aGDPRValueOtherThanOneOrZeroIsRefused() throws {
        let result = try Consent.run(["webview-script", "--gdpr-applies", "2"])
        #expect(result.status != 0)
        #expect(result.error.contains("--gdpr-applies takes 1"))
    }
}
