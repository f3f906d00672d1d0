// Runs the reference decoders as subprocesses: `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation
import Testing
import GPP

/// Our decoder against the IAB Tech Lab's two GPP libraries, built from their sources vendored in
/// `Tests/reference/` by `Tests/reference/gpp-reference`: iabgpp-java (master `a51d55f`, compiled with
/// `javac`) and iabgpp-es (3.2.0, `fd0546e`, compiled with `tsc`, run with `node`), on every GPP string
/// the reference implementations' tests and the GPP spec carry (`Fixtures/gpp/reference-strings.txt`).
///
/// All answers are in the GPP JSON form. On each string ours and a reference's must agree (both refuse,
/// or both print the same sections in the same order with the same fields and values) unless the string
/// is listed for that reference in `Fixtures/gpp/reference-disagreements.json`; a listed string must
/// disagree exactly as recorded there (who refuses, or which fields differ), so that a change on either
/// side shows.
///
/// In CI (`CI=true`) both tests always run and fail when their reference cannot be built (no JDK, no
/// tsc or node); elsewhere such a test is skipped, and Swift Testing lists it as skipped with the reason.
@Suite struct DifferentialTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let strings = repository.appendingPathComponent("Fixtures/gpp/reference-strings.txt")
    static let disagreements = repository.appendingPathComponent("Fixtures/gpp/reference-disagreements.json")

    /// One reference decoder: an argument of `Tests/reference/gpp-reference`.
    enum Reference: String, Codable, Sendable, CustomStringConvertible {
        /// IAB Tech Lab's iabgpp-java.
        case java
        /// IAB Tech Lab's iabgpp-es.
        case es

        var description: String { "iabgpp-\(rawValue)" }

        static let script = repository.appendingPathComponent("Tests/reference/gpp-reference")

        /// Whether `gpp-reference <name> --check` builds this reference here.
        var isAvailable: Bool {
            let process = Process()
            process.executableURL = Self.script
            process.arguments = [rawValue, "--check"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }

        /// What is missing, and what to install, when the reference cannot be built.
        var missing: String {
            switch self {
            case .java: "the iabgpp-java reference decoder does not build (Tests/reference/gpp-reference java --check: it needs javac and java, Debian default-jdk-headless)"
            case .es: "the iabgpp-es reference decoder does not build (Tests/reference/gpp-reference es --check: it needs tsc and node, Debian node-typescript)"
            }
        }
    }

    static let javaAvailable = Reference.java.isAvailable
    static let esAvailable = Reference.es.isAvailable

    /// Whether this is a CI run, where no test may be skipped for a missing tool.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: javaAvailable || isCI, "\(Reference.java.missing) (skipped outside CI)"))
    func ourDecoderAgreesWithIabgppJavaOnEveryReferenceStringExceptTheRecordedDisagreements() throws {
        try #require(Self.javaAvailable, "\(Reference.java.missing): CI=true, so the differential test must run")
        try Self.compare(with: .java, atLeastDecodedAlike: 130)
    }

    @Test(.enabled(if: esAvailable || isCI, "\(Reference.es.missing) (skipped outside CI)"))
    func ourDecoderAgreesWithIabgppEsOnEveryReferenceStringExceptTheRecordedDisagreements() throws {
        try #require(Self.esAvailable, "\(Reference.es.missing): CI=true, so the differential test must run")
        try Self.compare(with: .es, atLeastDecodedAlike: 145)
    }

    /// Decodes the corpus with ours and with `reference`, and checks every string against the record.
    /// `atLeastDecodedAlike`: a floor under the strings both decode alike (the corpus shrinking shows).
    static func compare(with reference: Reference, atLeastDecodedAlike floor: Int) throws {
        let strings = try corpus()
        let recorded = try recordedDisagreements()
        let entries = recorded.entries(for: reference)
        let theirs = try run(reference, on: strings)
        try #require(theirs.count == strings.count, "\(reference) printed \(theirs.count) lines for \(strings.count) strings")

        var bothDecoded = 0, bothRefused = 0
        for (string, their) in zip(strings, theirs) {
            let found = Disagreement(ours: ours(string), theirs: their)
            if let entry = entries[string] {
                #expect(found == entry.disagreement, """
                    \(string): recorded for \(reference) as \(entry.disagreement) because \(recorded.reasons[entry.reason] ?? entry.reason); \
                    found \(found.map { "\($0)" } ?? "agreement")
                    """)
            } else if let found {
                let suggestion = Entry(reference: reference, string: string, reason: "?", disagreement: found)
                Issue.record("\(string): a disagreement with \(reference) not recorded in reference-disagreements.json: \(suggestion.json)")
            } else if case .decoded = their {
                bothDecoded += 1
            } else {
                bothRefused += 1
            }
        }
        #expect(Set(entries.keys).subtracting(strings).isEmpty, "recorded disagreements with \(reference) on strings not in the corpus")
        print("GPP differential with \(reference): \(strings.count) strings: \(bothDecoded) decoded alike field by field, \(bothRefused) refused by both, \(entries.count) recorded disagreements")
        #expect(bothDecoded >= floor, "fewer strings decoded alike by \(reference) than when recorded (\(floor))")
    }

    // MARK: - The two answers and how they differ

    /// One decoder's answer for one string: its JSON form (and its sections' order), or why it refused.
    enum Answer {
        case decoded(ReferenceJSON, order: [String])
        case refused(String)
    }

    /// How our answer for one string differs from the reference's, in the form
    /// `reference-disagreements.json` records it.
    struct Disagreement: Codable, Equatable, CustomStringConvertible {
        enum Kind: String, Codable {
            /// The reference fails, we decode.
            case referenceRejects
            /// We refuse, the reference decodes.
            case oursRejects
            /// Both decode; the fields in `fields` differ.
            case fieldsDiffer
        }

        /// Two values of one `prefix.Field` path (`prefix` alone: a whole section; `(section order)`: the
        /// sections' order); nil where that side has none.
        struct Values: Codable, Equatable {
            var ours: ReferenceJSON?
            var reference: ReferenceJSON?
        }

        var kind: Kind
        /// Why we refused (`code section field`), for `oursRejects`.
        var ours: String?
        /// The reference's error, for `referenceRejects`.
        var reference: String?
        /// Every path whose values differ, for `fieldsDiffer`.
        var fields: [String: Values]?

        /// The difference between the two answers, or nil when they agree.
        init?(ours: Answer, theirs: Answer) {
            switch (ours, theirs) {
            case (.refused, .refused): return nil
            case (.refused(let why), .decoded): self.init(kind: .oursRejects, ours: why)
            case (.decoded, .refused(let why)): self.init(kind: .referenceRejects, reference: why)
            case (.decoded(let mine, let myOrder), .decoded(let their, let theirOrder)):
                var fields = mine.differences(from: their)
                if myOrder != theirOrder {
                    fields["(section order)"] = Values(ours: .array(myOrder.map { .string($0) }), reference: .array(theirOrder.map { .string($0) }))
                }
                if fields.isEmpty { return nil }
                self.init(kind: .fieldsDiffer, fields: fields)
            }
        }

        init(kind: Kind, ours: String? = nil, reference: String? = nil, fields: [String: Values]? = nil) {
            self.kind = kind
            self.ours = ours
            self.reference = reference
            self.fields = fields
        }

        var description: String {
            switch kind {
            case .referenceRejects: "referenceRejects (\(reference ?? ""))"
            case .oursRejects: "oursRejects (\(ours ?? ""))"
            case .fieldsDiffer: "fieldsDiffer \((fields ?? [:]).keys.sorted().joined(separator: ", ")): \(Entry.encoded(fields))"
            }
        }
    }

    /// One recorded disagreement.
    struct Entry: Codable {
        /// The reference ours disagrees with.
        let reference: Reference
        let string: String
        /// The id of its explanation in `reasons`.
        let reason: String
        let disagreement: Disagreement

        /// The entry as `reference-disagreements.json` holds it.
        var json: String { Self.encoded(self) }

        static func encoded(_ value: some Encodable) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
    }

    /// `Fixtures/gpp/reference-disagreements.json`: the explanations by id, and the entries.
    struct Recorded: Decodable {
        let reasons: [String: String]
        let strings: [Entry]

        /// The entries for one reference, by string.
        func entries(for reference: Reference) -> [String: Entry] {
            Dictionary(strings.filter { $0.reference == reference }.map { ($0.string, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    static func corpus() throws -> [String] {
        try String(contentsOf: strings, encoding: .utf8)
            .split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static func recordedDisagreements() throws -> Recorded {
        let recorded = try JSONDecoder().decode(Recorded.self, from: Data(contentsOf: disagreements))
        for entry in recorded.strings {
            #expect(recorded.reasons[entry.reason] != nil, "\(entry.string): reason \(entry.reason) is not explained")
        }
        return recorded
    }

    /// Our answer: the GPP module's JSON form of the string, or its error.
    static func ours(_ string: String) -> Answer {
        do {
            let data = Data(try GPPString(decoding: string).jsonText().utf8)
            return .decoded(try JSONDecoder().decode(ReferenceJSON.self, from: data), order: topLevelKeys(data))
        } catch let error as GPPDecodingError {
            return .refused([error.code, error.sectionPrefix ?? error.sectionId.map(String.init) ?? "header", error.field]
                .filter { !$0.isEmpty }.joined(separator: " "))
        } catch {
            return .refused("\(error)")
        }
    }

    /// A reference's answers, one per string, from one run of `gpp-reference`.
    static func run(_ reference: Reference, on strings: [String]) throws -> [Answer] {
        let process = Process()
        process.executableURL = Reference.script
        process.arguments = [reference.rawValue]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice  // iabgpp-java's log warnings
        try process.run()
        // Write from another thread so a full output pipe cannot deadlock us.
        let text = strings.joined(separator: "\n") + "\n"
        let writer = Thread { input.fileHandleForWriting.write(Data(text.utf8)); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try data.split(separator: UInt8(ascii: "\n")).map { line in
            let value = try JSONDecoder().decode(ReferenceJSON.self, from: Data(line))
            if case .object(let object) = value, object.count == 1, case .string(let message)? = object["error"] {
                return .refused(message)
            }
            return .decoded(value, order: topLevelKeys(Data(line)))
        }
    }

    /// The keys of a JSON object's outermost level, in the order the text has them.
    static func topLevelKeys(_ json: Data) -> [String] {
        var keys: [String] = [], depth = 0, inString = false, escaped = false, start = 0
        let bytes = Array(json)
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    // A string at depth 1 followed by ':' is a key of the outer object.
                    let rest = bytes[(index + 1)...].first { $0 != UInt8(ascii: " ") }
                    if depth == 1 && rest == UInt8(ascii: ":") {
                        keys.append(String(decoding: bytes[(start + 1)..<index], as: UTF8.self))
                    }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; start = index
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return keys
    }
}

/// A JSON value that keeps booleans and numbers apart (Foundation's `NSNumber` does not).
enum ReferenceJSON: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ReferenceJSON])
    case object([String: ReferenceJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([ReferenceJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: ReferenceJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let integer = Int(exactly: value) { try container.encode(integer) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let object): try container.encode(object)
        }
    }

    /// Where two GPP JSON forms differ: `prefix.Field` paths, or `prefix` alone for a section on one
    /// side only (or not an object), with each side's value.
    func differences(from other: ReferenceJSON) -> [String: DifferentialTests.Disagreement.Values] {
        typealias Values = DifferentialTests.Disagreement.Values
        guard case .object(let mine) = self, case .object(let theirs) = other else {
            return self == other ? [:] : ["(whole string)": Values(ours: self, reference: other)]
        }
        var paths: [String: Values] = [:]
        for prefix in Set(mine.keys).union(theirs.keys) {
            guard case .object(let myFields)? = mine[prefix], case .object(let theirFields)? = theirs[prefix] else {
                if mine[prefix] != theirs[prefix] { paths[prefix] = Values(ours: mine[prefix], reference: theirs[prefix]) }
                continue
            }
            for field in Set(myFields.keys).union(theirFields.keys) where myFields[field] != theirFields[field] {
                paths["\(prefix).\(field)"] = Values(ours: myFields[field], reference: theirFields[field])
            }
        }
        return paths
    }
}
#endif
