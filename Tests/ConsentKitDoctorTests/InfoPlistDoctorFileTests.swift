import Foundation
import Testing
@testable import ConsentKitDoctor

/// Reading Info.plist files: both formats, and the typed errors for what is not an Info.plist.
@Suite("Doctor: Info.plist files")
struct InfoPlistDoctorFileTests {
    let files: PlistFiles

    init() throws {
        files = try PlistFiles()
    }

    /// Every key of ``PlistFiles/complete`` wrong in its own way.
    static let broken: [String: String] = [
        "CFBundleName": "<string>News</string>",
        "NSUserTrackingUsageDescription": "<string>  </string>",
        "GADApplicationIdentifier": "<string>ca-app-pub-3940256099942544/2934735716</string>",
        "GADDelayAppMeasurementInit": "<string>YES</string>",
    ]

    @Test("a binary file and the XML it was made from give the same findings")
    func binaryAndXMLAgree() throws {
        let xml = try files.infoPlist(Self.broken, format: .xml)
        let binary = try files.infoPlist(Self.broken, format: .binary)
        #expect(try Data(contentsOf: binary).prefix(8) == Data("bplist00".utf8))
        #expect(try Data(contentsOf: xml).prefix(5) == Data("<?xml".utf8))

        let fromXML = try InfoPlistCheck.check(fileAt: xml, usage: .everything)
        let fromBinary = try InfoPlistCheck.check(fileAt: binary, usage: .everything)

        #expect(fromXML.map(\.problem) == [.blank, .malformed(found: "ca-app-pub-3940256099942544/2934735716"), .wrongType(found: "string")])
        #expect(fromBinary == fromXML)
    }

    @Test("bytes given directly are checked like the file they came from")
    func dataAndFileAgree() throws {
        let file = try files.infoPlist(Self.broken, format: .binary)

        let fromData = try InfoPlistCheck.check(data: Data(contentsOf: file), usage: .everything)

        #expect(fromData == (try InfoPlistCheck.check(fileAt: file, usage: .everything)))
        #expect(fromData.count == 3)
    }

    @Test("a file that is not a property list is a typed error naming the file and the parser's reason")
    func notAPropertyList() throws {
        let file = try files.file("Info.plist", text: "CFBundleName = News\n")

        let error = try #require(throws: InfoPlistError.self) { try InfoPlistCheck.check(fileAt: file, usage: .everything) }

        guard case .notAPropertyList(let source, let reason) = error else {
            Issue.record("expected notAPropertyList, got \(error)")
            return
        }
        #expect(source == file)
        #expect(!reason.isEmpty)
        #expect(error.description.hasPrefix("\(file.path) is not a property list: "))
    }

    @Test("a malformed XML plist is a typed error whose reason gives the line")
    func malformedXML() throws {
        // Line 7 is a key without a value; the parser notices at the </dict> on line 8.
        let text = PlistFiles.document("<dict>\n\t<key>CFBundleName</key>\n\t<string>News</string>\n\t<key>GADApplicationIdentifier</key>\n</dict>")
        let file = try files.file("Info.plist", text: text)

        let error = try #require(throws: InfoPlistError.self) { try InfoPlistCheck.check(fileAt: file, usage: .everything) }

        guard case .notAPropertyList(_, let reason) = error else {
            Issue.record("expected notAPropertyList, got \(error)")
            return
        }
        #expect(reason.contains("line 8"))
    }

    @Test("a property list whose root is an array is a typed error saying so", arguments: PlistFormat.allCases)
    func rootIsAnArray(format: PlistFormat) throws {
        var file = try files.file("Info.plist", text: PlistFiles.document("<array>\n\t<string>GADApplicationIdentifier</string>\n</array>"))
        if format == .binary {
            let root = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: nil)
            file = try files.file("Info-binary.plist", text: "")
            try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0).write(to: file)
        }

        let error = try #require(throws: InfoPlistError.self) { try InfoPlistCheck.check(fileAt: file, usage: .everything) }

        #expect(error == .rootNotDictionary(source: file, found: "array"))
        #expect(error.description == "\(file.path) is not an Info.plist: its root is array, not a dictionary")
    }

    @Test("a file that does not exist is an unreadable-file error naming it")
    func missingFile() throws {
        let file = files.folder.appendingPathComponent("Nowhere/Info.plist")

        let error = try #require(throws: InfoPlistError.self) { try InfoPlistCheck.check(fileAt: file, usage: .everything) }

        guard case .unreadableFile(let url, _) = error else {
            Issue.record("expected unreadableFile, got \(error)")
            return
        }
        #expect(url == file)
        #expect(error.description.hasPrefix("cannot read \(file.path): "))
    }
}
