import Foundation
import Testing
@testable import ConsentKitDoctor

/// How a test writes its Info.plist file.
enum PlistFormat: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// XML text, as Xcode keeps it in the project.
    case xml
    /// Binary (`bplist00`), as Xcode writes it into the built app.
    case binary

    var testDescription: String { rawValue }
}

/// Info.plist files in a fresh folder under the temporary directory (`doctor-test-…`), removed
/// when the value goes away.
final class PlistFiles: Sendable {
    /// The folder.
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `text` to `name` in the folder and returns its URL.
    func file(_ name: String, text: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Writes an Info.plist whose dictionary holds `entries` (key → the value's XML, such as
    /// `<true/>`), as XML text; for `.binary` the XML file is then read back and converted.
    func infoPlist(_ entries: [String: String], format: PlistFormat) throws -> URL {
        let body = entries.sorted { $0.key < $1.key }.map { "\t<key>\($0.key)</key>\n\t\($0.value)" }.joined(separator: "\n")
        let xml = try file("Info-\(UUID().uuidString).plist", text: Self.document("<dict>\n\(body)\n</dict>"))
        switch format {
        case .xml:
            return xml
        case .binary:
            let root = try PropertyListSerialization.propertyList(from: Data(contentsOf: xml), options: [], format: nil)
            let bytes = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
            let binary = folder.appendingPathComponent("Info-\(UUID().uuidString)-binary.plist")
            try bytes.write(to: binary)
            return binary
        }
    }

    /// The findings for an Info.plist with `entries`, written as `format` and read from its file.
    func findings(_ entries: [String: String], format: PlistFormat = .xml, usage: AppUsage = .everything) throws -> [InfoPlistFinding] {
        try InfoPlistCheck.check(fileAt: infoPlist(entries, format: format), usage: usage)
    }

    /// `content` inside the XML declaration, Apple's DOCTYPE and `<plist version="1.0">`.
    static func document(_ content: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(content)
        </plist>

        """
    }

    /// An Info.plist an app with ATT and Google ads with consent needs: nothing missing.
    static let complete: [String: String] = [
        "CFBundleIdentifier": "<string>com.example.news</string>",
        "CFBundleName": "<string>News</string>",
        "NSUserTrackingUsageDescription": "<string>We use this identifier to show you ads that match your interests.</string>",
        "GADApplicationIdentifier": "<string>ca-app-pub-3940256099942544~1458002511</string>",
        "GADDelayAppMeasurementInit": "<true/>",
    ]

    /// ``complete`` with `key` set to `value` (removed when nil).
    static func complete(_ key: InfoPlistKey, _ value: String?) -> [String: String] {
        var entries = complete
        entries[key.rawValue] = value
        return entries
    }
}

extension AppUsage {
    /// ATT and Google Mobile Ads with consent.
    static let everything = AppUsage(usesAppTrackingTransparency: true, usesGoogleMobileAdsWithConsent: true)
}
