import Foundation
import Testing

/// The docs' Swift code is the compiled code of `Snippets.swift`: every ```swift block of the DocC
/// catalogs and the README is marked `<!-- snippet: NAME -->` and equals that region.
@Suite("Documentation snippets compile")
struct DocumentationSyncTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose Swift blocks must be snippets.
    static func documents() throws -> [URL] {
        var files = [repository.appendingPathComponent("README.md")]
        let sources = repository.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(module)
            for entry in try FileManager.default.contentsOfDirectory(atPath: folder.path) where entry.hasSuffix(".docc") {
                let catalog = folder.appendingPathComponent(entry)
                for article in try FileManager.default.contentsOfDirectory(atPath: catalog.path) where article.hasSuffix(".md") {
                    files.append(catalog.appendingPathComponent(article))
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The regions of `Snippets.swift`, by name.
    static func regions() throws -> [String: String] {
        let source = try String(contentsOf: repository.appendingPathComponent("Tests/DocumentationTests/Snippets.swift"), encoding: .utf8)
        var regions: [String: String] = [:]
        var current: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") {
                current = (String(trimmed.dropFirst("// snippet: ".count)), [])
            } else if trimmed == "// end snippet", let region = current {
                regions[region.name] = normalized(region.lines)
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return regions
    }

    /// The code without import lines, surrounding blank lines or common indentation.
    static func normalized<S: StringProtocol>(_ lines: [S]) -> String {
        func trimmed(_ line: String) -> String { line.trimmingCharacters(in: CharacterSet.whitespaces) }
        var kept: [String] = lines.map { String($0) }.filter { !trimmed($0).hasPrefix("import ") }
        while let first = kept.first, trimmed(first).isEmpty { kept.removeFirst() }
        while let last = kept.last, trimmed(last).isEmpty { kept.removeLast() }
        let indents: [Int] = kept.filter { !trimmed($0).isEmpty }.map { line in line.prefix(while: { $0 == " " }).count }
        let indent = indents.min() ?? 0
        let dedented: [String] = kept.map { line in trimmed(line).isEmpty ? "" : String(line.dropFirst(indent)) }
        return dedented.joined(separator: "\n")
    }

    /// Every ```swift block of `document`, with the snippet name marked above it (nil: none).
    static func blocks(in document: String) -> [(name: String?, code: String, line: Int)] {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        var result: [(String?, String, Int)] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else { index += 1; continue }
            let start = index
            var marker: String?
            if start > 0 {
                let above = lines[start - 1].trimmingCharacters(in: .whitespaces)
                if above.hasPrefix("<!-- snippet: "), above.hasSuffix(" -->") {
                    marker = String(above.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
                }
            }
            index += 1
            var body: [Substring] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            result.append((marker, normalized(body), start + 1))
            index += 1
        }
        return result
    }

    @Test("every Swift block of the DocC catalogs and the README is a compiled snippet, word for word")
    func everyBlockIsASnippet() throws {
        let regions = try Self.regions()
        #expect(regions.count >= 15)
        var used: Set<String> = []
        for document in try Self.documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            let name = document.path.replacingOccurrences(of: Self.repository.path + "/", with: "")
            for block in Self.blocks(in: text) {
                guard let marker = block.name else {
                    Issue.record("\(name):\(block.line): a ```swift block without <!-- snippet: NAME --> above it")
                    continue
                }
                guard let region = regions[marker] else {
                    Issue.record("\(name):\(block.line): no region '\(marker)' in Tests/DocumentationTests/Snippets.swift")
                    continue
                }
                used.insert(marker)
                #expect(block.code == region, "\(name):\(block.line): the block differs from snippet '\(marker)'")
            }
        }
        #expect(Set(regions.keys).subtracting(used).isEmpty, "snippets no document shows")
    }

    @Test("the checker notices a block that differs from its snippet")
    func checkerFindsDifferences() throws {
        let regions = try Self.regions()
        let document = "<!-- snippet: configure -->\n```swift\nlet consent = ConsentManager()\n```\n"
        let block = try #require(Self.blocks(in: document).first)
        #expect(block.name == "configure")
        #expect(block.code != regions["configure"])
        #expect(Self.blocks(in: "```swift\nlet x = 1\n```").first?.name == nil)
    }
}
