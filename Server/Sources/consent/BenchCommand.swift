import ArgumentParser
import Foundation
import GPP
import HeapStatistics
import TCF

/// `consent bench`: decode and encode throughput, and memory per decoded value, over a corpus.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decode and encode throughput, and vendor-list load time.",
        discussion: """
            Full decode: every line of the corpus is decoded, over and over, for at least SECONDS \
            per run; every id set of the value is built (the decoder is eager) and counted, and \
            the counts are checked after the run so the work cannot be optimised away. Lines \
            that fail to decode stay in the timed loop (a server pays for them too) and are \
            reported. Encode: the decodable lines are decoded once, then `encoded()` is timed \
            over them (a value that fails to encode is counted, and stays in the loop too). Each \
            rate is the median of \(runs) runs. Memory: the whole corpus is decoded into one \
            array kept alive, and the heap growth (glibc mallinfo2, Linux only) is divided by the \
            number of values. With --vendor-list FILE, loading the file's bytes \
            into a VendorList is timed load by load, for at least SECONDS and 30 loads, and so is \
            JSONSerialization parsing the same bytes, as a peer. With --gpp STRING, decoding that \
            GPP string (GPPString(decoding:), every section) is timed the same way, for at least \
            SECONDS per run.
            """
    )

    /// Timed runs per measurement; the median is reported, as it shrugs off one run disturbed
    /// by another process where the best would flatter us.
    static let runs = 3

    @Argument(help: "A file with one consent string per line (blank lines are skipped).")
    var corpus: String

    @Option(name: .long, help: "Minimum duration of each timed run, in seconds.")
    var seconds: Double = 3

    @Option(name: .customLong("vendor-list"), help: "Also time loading this Global Vendor List JSON file into the model.")
    var vendorList: String?

    @Option(name: .long, help: "Also time decoding this GPP string (scripts/bench gives a tcfeuv2 + usnat one).")
    var gpp: String?

    @Flag(name: .long, help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be a positive number") }
    }

    func run() throws {
        let lines: [String]
        do {
            lines = Self.lines(of: try Data(contentsOf: URL(fileURLWithPath: corpus)))
        } catch {
            throw ValidationError("cannot read \(corpus): \(error.localizedDescription)")
        }
        guard !lines.isEmpty else { throw ValidationError("\(corpus) holds no consent strings") }
        // First, so that a bad --vendor-list file fails before the long string runs.
        let vendorListLoad = try vendorList.map { try Self.measureVendorList(at: $0, seconds: seconds) }
        let gppDecode = try gpp.map { try GPPDecode.measure($0, seconds: seconds, runs: Self.runs) }

        // One untimed pass: finds the failures, warms caches and the allocator, and fixes the
        // checksum every timed pass must reproduce.
        var decoded: [ConsentString] = []
        var decodeFailures = 0
        for line in lines {
            do { decoded.append(try ConsentString(decoding: line)) } catch { decodeFailures += 1 }
        }
        let idsPerPass = decoded.reduce(0) { $0 + Self.idCount($1) }

        let decodeRuns = (0..<Self.runs).map { _ in
            Self.rate(atLeast: seconds) {
                var ids = 0
                for line in lines {
                    if let value = try? ConsentString(decoding: line) { ids &+= Self.idCount(value) }
                }
                // A trap, not an assert: the check must survive -O, and it is what keeps the
                // optimiser from discarding the decoded values.
                precondition(ids == idsPerPass, "decode is not deterministic: \(ids) ids, expected \(idsPerPass)")
                return lines.count
            }
        }

        var encodeFailures = 0
        var encodedBytesPerPass = 0
        for value in decoded {
            if let text = try? value.encoded() { encodedBytesPerPass += text.utf8.count } else { encodeFailures += 1 }
        }
        // With nothing decodable there is nothing to encode: report no runs rather than spin.
        let encodeRuns = decoded.isEmpty ? [] : (0..<Self.runs).map { _ in
            Self.rate(atLeast: seconds) {
                var bytes = 0
                for value in decoded {
                    if let text = try? value.encoded() { bytes &+= text.utf8.count }
                }
                precondition(bytes == encodedBytesPerPass, "encode is not deterministic")
                return decoded.count
            }
        }

        let report = Report(
            corpus: corpus,
            strings: lines.count,
            corpusBytes: lines.reduce(0) { $0 + $1.utf8.count },
            decodeFailures: decodeFailures,
            encodeFailures: encodeFailures,
            secondsPerRun: seconds,
            runs: Self.runs,
            statistic: "median",
            decodeStringsPerSecond: Self.median(decodeRuns),
            decodeRuns: decodeRuns,
            encodeStringsPerSecond: Self.median(encodeRuns),
            encodeRuns: encodeRuns,
            bytesPerDecodedString: Self.bytesPerDecodedString(lines),
            inlineBytesPerValue: MemoryLayout<ConsentString>.stride,
            vendorIdChecksum: idsPerPass,
            vendorList: vendorListLoad,
            gpp: gppDecode
        )
        Output.line(json ? try Output.json(report) : report.table)
    }

    /// What `consent bench` measured; the JSON form is the one `scripts/bench` reads.
    struct Report: Encodable {
        let corpus: String
        /// Non-blank lines in the corpus.
        let strings: Int
        /// UTF-8 bytes of those lines, without line breaks.
        let corpusBytes: Int
        let decodeFailures: Int
        let encodeFailures: Int
        let secondsPerRun: Double
        let runs: Int
        /// How the runs are summarised into the `…PerSecond` figures.
        let statistic: String
        let decodeStringsPerSecond: Double
        let decodeRuns: [Double]
        let encodeStringsPerSecond: Double
        let encodeRuns: [Double]
        /// Heap growth per decoded value, the value's inline bytes included; nil where glibc's
        /// `mallinfo2` is unavailable.
        let bytesPerDecodedString: Double?
        /// `MemoryLayout<ConsentString>.stride`: the part of each value stored in the array.
        let inlineBytesPerValue: Int
        /// Ids in every vendor set of the decoded corpus (consents, legitimate interests,
        /// restrictions, disclosed and allowed vendors), to compare with other decoders.
        let vendorIdChecksum: Int
        /// The `--vendor-list` measurement, when asked for.
        let vendorList: VendorListLoad?
        /// The `--gpp` measurement, when asked for.
        let gpp: GPPDecode?

        var table: String {
            func runs(_ rates: [Double]) -> String { rates.map { grouped($0) }.joined(separator: ", ") }
            let memory = bytesPerDecodedString.map { grouped($0) } ?? "n/a"
            return [
                "consent bench \(corpus)",
                "  \(grouped(Double(strings))) string\(strings == 1 ? "" : "s"), \(grouped(Double(corpusBytes))) bytes "
                    + "(\(grouped(Double(corpusBytes) / Double(strings))) bytes/string); "
                    + "\(decodeFailures) failed to decode, \(encodeFailures) failed to encode; "
                    + "vendor-id checksum \(vendorIdChecksum)",
                "  rates: \(statistic) of \(self.runs) runs of at least \(secondsPerRun) s each",
                "",
                BenchCommand.row("full decode", grouped(decodeStringsPerSecond), "strings/s  (runs: \(runs(decodeRuns)))"),
                BenchCommand.row("encode", grouped(encodeStringsPerSecond), "strings/s  (runs: \(runs(encodeRuns)))"),
                BenchCommand.row("memory per decoded string", memory, "bytes of heap (\(inlineBytesPerValue) inline + id sets etc.)"),
            ].joined(separator: "\n") + (vendorList.map { "\n\n" + $0.rows.joined(separator: "\n") } ?? "")
                + (gpp.map { "\n\n" + $0.rows.joined(separator: "\n") } ?? "")
        }
    }

    /// One line of the table: the label, the value right-aligned, then what it is.
    static func row(_ label: String, _ value: String, _ detail: String) -> String {
        label.padding(toLength: 32, withPad: " ", startingAt: 0)
            + String(repeating: " ", count: max(0, 10 - value.count)) + value + "  " + detail
    }

    /// Runs `pass` until at least `seconds` have elapsed and returns operations per second;
    /// `pass` returns how many operations it did. Whole passes only, so a pass should be short
    /// next to `seconds`.
    static func rate(atLeast seconds: Double, _ pass: () -> Int) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let minimum = Duration.seconds(seconds)
        var operations = 0
        var elapsed = Duration.zero
        repeat {
            operations += pass()
            elapsed = clock.now - start
        } while elapsed < minimum
        let components = elapsed.components
        return Double(operations) / (Double(components.seconds) + Double(components.attoseconds) * 1e-18)
    }

    /// The number of ids in every vendor set of `value`: touching each set's storage proves it
    /// was built.
    static func idCount(_ value: ConsentString) -> Int {
        switch value {
        case .v1(let v1):
            return v1.vendorConsents.count
        case .v2(let tc):
            var count = tc.vendorConsents.count + tc.vendorLegitimateInterests.count
            for restriction in tc.publisherRestrictions { count += restriction.vendorIds.count }
            count += (tc.disclosedVendors?.count ?? 0) + (tc.allowedVendors?.count ?? 0)
            return count
        }
    }

    /// Heap bytes per value for the decodable `lines`, decoded into one array kept alive; nil
    /// where the C library cannot tell how much heap is in use.
    static func bytesPerDecodedString(_ lines: [String]) -> Double? {
        let before = consentkit_heap_bytes_in_use()
        guard before >= 0 else { return nil }
        // The array is allocated after `before`, so its inline storage counts as well.
        var values: [ConsentString] = []
        values.reserveCapacity(lines.count)
        for line in lines {
            if let value = try? ConsentString(decoding: line) { values.append(value) }
        }
        let growth = consentkit_heap_bytes_in_use() - before
        return withExtendedLifetime(values) { values.isEmpty ? nil : Double(growth) / Double(values.count) }
    }

    /// The non-blank lines of `data`, trimmed of ASCII blanks (a CR of CRLF included).
    ///
    /// Works on bytes: Foundation's `trimmingCharacters` goes through UTF-16 and cost more than
    /// decoding the whole corpus once. Consent strings are ASCII, so nothing is lost.
    static func lines(of data: Data) -> [String] {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let first = line.firstIndex(where: { !isBlank($0) }),
                  let last = line.lastIndex(where: { !isBlank($0) })
            else { return nil }
            return String(decoding: line[first...last], as: UTF8.self)
        }
    }

    /// The median of `values`, 0 for none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// `value` rounded, with thousands separators: 1,234,567.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, digit) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0, digit != "-" { result.append(",") }
        result.append(digit)
    }
    return String(result.reversed())
}
