import Foundation
import Testing

/// `consent decode` on hostile input: its output stays proportional to the string, and it
/// answers each line of standard input before reading the next.
@Suite struct DecodeCommandTests {
    /// A TC string with `records` publisher restrictions of vendors 1-65,535, made by
    /// `consent encode` from the JSON form (restriction vendors as ranges).
    static func worstString(records: Int) throws -> String {
        let base = try Consent.run(["decode", "--json", CommandLineTests.v2Example]).output
        var object = try #require(try JSONSerialization.jsonObject(with: Data(base.utf8)) as? [String: Any])
        object["publisherRestrictions"] = (0..<records).map { index in
            ["purposeId": index % 24 + 1, "restrictionType": 0, "vendorIds": [[1, 65_535]]] as [String: Any]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let encoded = try Consent.run(["encode"], input: json + "\n")
        #expect(encoded.status == 0, "\(encoded.error)")
        return encoded.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func jsonOfTwoHundredRestrictionsOfAllVendorsIsAsShortAsTheirRanges() throws {
        let string = try Self.worstString(records: 200)
        let result = try Consent.run(["decode", "--json", string])
        #expect(result.status == 0, "\(result.error)")
        // Was 76 MB for this 1.8 KB string: every restriction printed 65,535 ids.
        #expect(result.output.utf8.count < 20 * string.utf8.count, "\(result.output.utf8.count) bytes of JSON")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let restrictions = try #require(object["publisherRestrictions"] as? [[String: Any]])
        #expect(restrictions.count == 200)
        #expect(restrictions.allSatisfy { $0["vendorIds"] as? [[Int]] == [[1, 65_535]] })
    }

    @Test func eachLineOfStandardInputIsAnsweredBeforeTheNextIsRead() throws {
        let process = Process()
        process.executableURL = Consent.executable
        process.arguments = ["decode", "--json"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line, and standard input left open: its answer must come anyway.
        stdin.fileHandleForWriting.write(Data("\(CommandLineTests.v2Example)\n".utf8))
        let firstLine = LockedData()
        let answered = DispatchSemaphore(value: 0)
        let reader = stdout.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty || firstLine.append(chunk) { break }
            }
            answered.signal()
        }
        let inTime = answered.wait(timeout: .now() + 30) == .success
        #expect(inTime, "no output within 30 s while standard input stayed open")
        guard inTime else { return }
        #expect(firstLine.text.contains("\"cmpId\":880"))

        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Bytes read on one thread and looked at on another.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    /// Appends `chunk`; returns whether a whole line has arrived.
    func append(_ chunk: Data) -> Bool {
        lock.withLock {
            data.append(chunk)
            return data.contains(UInt8(ascii: "\n"))
        }
    }

    /// What has arrived, as text.
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
