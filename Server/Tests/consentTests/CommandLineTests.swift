import Foundation
import Testing

/// The `consent` executable, run as a user would run it.
@Suite struct CommandLineTests {
    static let v1Example = "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"
    static let v2Example = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"

    @Test func decodeJSONPrintsOneObjectPerInputLineInOrderAndFailsAtTheEnd() throws {
        let result = try Consent.run(["decode", "--json"], input: "\(Self.v2Example)\nnot-a-string!\n\(Self.v1Example)\n")
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.count == 3)
        #expect(lines[0]["cmpId"] as? Int == 880)
        #expect(lines[0]["vendorConsents"] as? [Int] == [1, 2, 3, 4])
        #expect(lines[0]["disclosedVendors"] as? [Int] == [1, 2, 3, 4, 5, 100, 404])
        #expect(lines[0]["publisherCountryCode"] as? String == "DE")
        #expect(lines[0]["created"] as? String == "2025-06-03T00:00:00.000Z")
        #expect(lines[1]["input"] as? String == "not-a-string!")
        #expect((lines[1]["error"] as? String)?.contains("invalid character \"!\"") == true)
        #expect(lines[2]["version"] as? Int == 1)
        #expect(lines[2]["maxVendorId"] as? Int == 2011)
        #expect(lines[2]["created"] as? String == "2017-11-07T19:15:55.400Z")
    }

    @Test func decodeJSONUsesTheDocumentedFieldNames() throws {
        let result = try Consent.run(["decode", "--json", Self.v2Example])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
        let expected: Set<String> = [
            "version", "created", "lastUpdated", "cmpId", "cmpVersion", "consentScreen", "consentLanguage",
            "vendorListVersion", "policyVersion", "isServiceSpecific", "useNonStandardTexts", "specialFeatureOptins",
            "purposeConsents", "purposeLegitimateInterests", "purposeOneTreatment", "publisherCountryCode",
            "vendorConsents", "vendorLegitimateInterests", "publisherRestrictions", "disclosedVendors",
            "publisherConsents", "publisherLegitimateInterests", "numCustomPurposes", "publisherCustomConsents",
            "publisherCustomLegitimateInterests", "validation",
        ]
        #expect(Set(object.keys) == expected)
    }

    @Test func encodeTurnsDecodedJSONBackIntoTheSameStrings() throws {
        let decoded = try Consent.run(["decode", "--json", Self.v1Example, Self.v2Example])
        let encoded = try Consent.run(["encode"], input: decoded.output)
        #expect(encoded.status == 0)
        #expect(encoded.output == "\(Self.v1Example)\n\(Self.v2Example)\n")
    }

    @Test func encodeReportsTheLineAndFieldOfBadInputAndKeepsGoing() throws {
        let good = try Consent.run(["decode", "--json", Self.v2Example]).output
        let result = try Consent.run(["encode"], input: "{\"version\": 2}\n\(good)")
        #expect(result.status == 1)
        #expect(result.output == "\(Self.v2Example)\n")
        #expect(result.error.contains("line 1: missing field \"created\""))
    }

    @Test func decodeWithoutJSONPrintsAReadableSummary() throws {
        let result = try Consent.run(["decode", Self.v1Example])
        #expect(result.status == 0)
        #expect(result.output.contains("TCF v1.1 consent string"))
        #expect(result.output.contains("vendor consent    2010: 1-8, 10-2011"))
        #expect(result.output.contains("versionRetired"))
    }
}

/// Runs the built `consent` executable.
enum Consent {
    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// The executable next to the test bundle in the build products folder.
    static var executable: URL {
        Bundle.main.bundleURL.appendingPathComponent("consent")
    }

    static func run(_ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }
}
