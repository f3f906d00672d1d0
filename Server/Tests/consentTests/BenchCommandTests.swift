import Foundation
import Testing

/// `consent bench`, run over a tiny corpus. Only counts and signs are checked: timings depend
/// on the machine and its load, so no test asserts a rate.
@Suite struct BenchCommandTests {
    /// Writes `text` to a fresh temporary file, runs `body` with its path, then removes it.
    private func withCorpus<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("consent-bench-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    /// The vendor ids `consent decode --json` lists for `string`, in the sets the bench's
    /// checksum covers, so the checksum is checked against the decoder's own output.
    private func vendorIdCount(_ string: String) throws -> Int {
        let output = try Consent.run(["decode", "--json", string]).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        var count = 0
        for key in ["vendorConsents", "vendorLegitimateInterests", "disclosedVendors", "allowedVendors"] {
            count += (object[key] as? [Int])?.count ?? 0
        }
        // A restriction's vendors print as ranges, [[first, last], ...].
        for restriction in object["publisherRestrictions"] as? [[String: Any]] ?? [] {
            for range in restriction["vendorIds"] as? [[Int]] ?? [] { count += range[1] - range[0] + 1 }
        }
        return count
    }

    @Test func jsonReportsRatesCountsAndFailures() throws {
        let v1 = CommandLineTests.v1Example, v2 = CommandLineTests.v2Example
        // A blank line is skipped, a CRLF line ending is trimmed, a bad string is counted.
        let corpus = "\(v2)\n\n\(v1)\r\nnot-a-string!\n\(v2)\n"
        let result = try withCorpus(corpus) { path in
            try Consent.run(["bench", path, "--seconds", "0.05", "--json"])
        }
        #expect(result.status == 0, "stderr: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])

        #expect(report["strings"] as? Int == 4)
        #expect(report["corpusBytes"] as? Int == 2 * v2.utf8.count + v1.utf8.count + "not-a-string!".utf8.count)
        #expect(report["decodeFailures"] as? Int == 1)
        #expect(report["encodeFailures"] as? Int == 0)
        #expect(report["statistic"] as? String == "median")
        #expect(report["runs"] as? Int == 3)
        #expect((report["decodeStringsPerSecond"] as? Double ?? 0) > 0)
        #expect((report["encodeStringsPerSecond"] as? Double ?? 0) > 0)
        #expect((report["decodeRuns"] as? [Double])?.count == 3)
        #expect((report["encodeRuns"] as? [Double])?.count == 3)
        #expect(report["vendorIdChecksum"] as? Int == 2 * (try vendorIdCount(v2)) + (try vendorIdCount(v1)))
        #if os(Linux)
        // Each decoded value holds at least its inline bytes.
        let inline = try #require(report["inlineBytesPerValue"] as? Int)
        #expect((report["bytesPerDecodedString"] as? Double ?? 0) >= Double(inline))
        #endif
    }

    @Test func tableNamesEachMeasurement() throws {
        let result = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "0.05"])
        }
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.contains("1 string, "))
        #expect(result.output.contains("0 failed to decode"))
        for row in ["full decode", "encode", "memory per decoded string"] {
            #expect(result.output.contains("\n\(row) "), "no \(row) row in:\n\(result.output)")
        }
    }

    @Test func rejectsAMissingCorpusAndANonPositiveDuration() throws {
        let missing = try Consent.run(["bench", "/nonexistent/corpus.txt", "--seconds", "0.05"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("cannot read /nonexistent/corpus.txt"))
        let zero = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "0"])
        }
        #expect(zero.status != 0)
        #expect(zero.error.contains("--seconds must be a positive number"))
    }

    @Test func vendorListLoadIsTimedNextToJSONSerialization() throws {
        let list = "\(VendorListCommandTests.gvl)/gvl-v1_vendorlist-v66_2018-07-03.json"
        let result = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "0.01", "--vendor-list", list, "--json"])
        }
        #expect(result.status == 0, "stderr: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let load = try #require(report["vendorList"] as? [String: Any])
        #expect(load["file"] as? String == list)
        #expect(load["bytes"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: list))).count)
        #expect((load["loads"] as? Int ?? 0) >= 30)
        #expect(load["peer"] as? String == "JSONSerialization.jsonObject")
        for key in ["medianMilliseconds", "bestMilliseconds", "peerMedianMilliseconds", "peerBestMilliseconds"] {
            #expect((load[key] as? Double ?? 0) > 0, "\(key)")
        }
        #expect((load["bestMilliseconds"] as? Double ?? 0) <= (load["medianMilliseconds"] as? Double ?? 0))
    }

    @Test func aFileThatIsNotAVendorListFailsBeforeTheRuns() throws {
        let result = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "5", "--vendor-list", path])
        }
        #expect(result.status != 0)
        #expect(result.error.contains("is not a vendor list: invalid JSON"), "stderr: \(result.error)")
    }

    @Test func gppDecodeIsTimedForTheGivenString() throws {
        let gpp = "DBACMM~\(CommandLineTests.v2Example)~BVVVkkkkkpFY.YA"
        let result = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "0.05", "--gpp", gpp, "--json"])
        }
        #expect(result.status == 0, "stderr: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let decode = try #require(report["gpp"] as? [String: Any])
        #expect(decode["string"] as? String == gpp)
        #expect(decode["sections"] as? [Int] == [2, 7])
        #expect((decode["decodesPerSecond"] as? Double ?? 0) > 0)
        #expect((decode["runs"] as? [Double])?.count == 3)
        let table = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "0.05", "--gpp", gpp])
        }
        #expect(table.output.contains("\nGPP decode "), "no GPP decode row in:\n\(table.output)")
    }

    @Test func aGPPStringThatDoesNotDecodeFailsBeforeTheRuns() throws {
        let result = try withCorpus("\(CommandLineTests.v2Example)\n") { path in
            try Consent.run(["bench", path, "--seconds", "5", "--gpp", "DBABjw"])
        }
        #expect(result.status != 0)
        #expect(result.error.contains("--gpp: header lists 2 sections, the string has 0"), "stderr: \(result.error)")
    }
}
