import Foundation

/// Checks that an app's Info.plist has the keys its consent setup needs: the App Tracking
/// Transparency purpose string and Google Mobile Ads' app ID and delayed measurement.
///
/// The rules, given the app's ``AppUsage``:
/// - ATT used: `NSUserTrackingUsageDescription` is a string with text in it (whitespace alone
///   counts as empty), since it is the text of the system's tracking prompt. ATT not used: the
///   key being there is a warning, because SDKs take it as a sign that the app asks (Google's
///   IDFA explainer is shown when it is set and the ATT framework is linked).
/// - Google Mobile Ads with consent: `GADApplicationIdentifier` is a string shaped
///   `ca-app-pub-<16 digits>~<10 digits>` (an ad unit ID, with `/`, is named as such), and
///   `GADDelayAppMeasurementInit` is the Boolean `YES`, so Google's app measurement sends
///   nothing before the app has consent. Google documents a Boolean (`<true/>`); a string `YES`
///   or a number is reported as the wrong type, since it is not what the SDK is documented to read.
/// - A string that is a build-setting reference (`$(NAME)`) is a warning: the value exists only in
///   the built app, whose Info.plist can be checked instead.
///
/// Findings come in the order of the keys above. The check is pure: it reads only what it is given.
public enum InfoPlistCheck {
    /// The findings for an Info.plist already read into a dictionary; empty when nothing is wrong.
    public static func check(_ plist: [String: Any], usage: AppUsage) -> [InfoPlistFinding] {
        var findings: [InfoPlistFinding] = []
        if let finding = trackingUsageDescription(plist[InfoPlistKey.userTrackingUsageDescription.rawValue], usage: usage) {
            findings.append(finding)
        }
        if usage.usesGoogleMobileAdsWithConsent {
            if let finding = applicationIdentifier(plist[InfoPlistKey.gadApplicationIdentifier.rawValue]) {
                findings.append(finding)
            }
            if let finding = delayAppMeasurement(plist[InfoPlistKey.gadDelayAppMeasurementInit.rawValue]) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// The findings for an Info.plist's bytes, in any format `PropertyListSerialization` reads
    /// (XML or binary). `source` names the file in errors.
    ///
    /// - Throws: ``InfoPlistError/notAPropertyList(source:reason:)`` or
    ///   ``InfoPlistError/rootNotDictionary(source:found:)``.
    public static func check(data: Data, usage: AppUsage, source: URL? = nil) throws(InfoPlistError) -> [InfoPlistFinding] {
        check(try dictionary(from: data, source: source), usage: usage)
    }

    /// The findings for the Info.plist file at `url` (XML or binary).
    ///
    /// - Throws: ``InfoPlistError/unreadableFile(_:reason:)`` when the file cannot be read, and
    ///   the errors of ``check(data:usage:source:)``.
    public static func check(fileAt url: URL, usage: AppUsage) throws(InfoPlistError) -> [InfoPlistFinding] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(url, reason: reason(error))
        }
        return try check(data: data, usage: usage, source: url)
    }

    /// The root dictionary of a property list's bytes (XML, binary or OpenStep).
    ///
    /// - Throws: ``InfoPlistError/notAPropertyList(source:reason:)`` when the bytes do not parse,
    ///   ``InfoPlistError/rootNotDictionary(source:found:)`` when the root is something else.
    public static func dictionary(from data: Data, source: URL? = nil) throws(InfoPlistError) -> [String: Any] {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .notAPropertyList(source: source, reason: reason(error))
        }
        guard let dictionary = root as? [String: Any] else {
            throw .rootNotDictionary(source: source, found: typeName(root))
        }
        return dictionary
    }

    // MARK: - The rules

    /// `<key>GADApplicationIdentifier</key><string>…</string>` with a placeholder ID.
    static let applicationIdentifierSnippet =
        "<key>GADApplicationIdentifier</key><string>ca-app-pub-0000000000000000~0000000000</string>"
    /// `<key>GADDelayAppMeasurementInit</key><true/>`, as Google documents it.
    static let delayAppMeasurementSnippet = "<key>GADDelayAppMeasurementInit</key><true/>"
    /// `<key>NSUserTrackingUsageDescription</key>` with a placeholder text.
    static let trackingUsageDescriptionSnippet =
        "<key>NSUserTrackingUsageDescription</key><string>(what tracking is used for, in one sentence the user reads in the prompt)</string>"

    private static func trackingUsageDescription(_ value: Any?, usage: AppUsage) -> InfoPlistFinding? {
        let key = InfoPlistKey.userTrackingUsageDescription
        guard usage.usesAppTrackingTransparency else {
            guard value != nil else { return nil }
            return InfoPlistFinding(
                severity: .warning, key: key, problem: .unused,
                message: "is set although the app is declared not to use App Tracking Transparency; SDKs read it as a sign that the app asks for tracking permission",
                fix: "Remove the key if the app never asks for tracking permission; if it does, declare that it uses ATT.",
                snippet: nil)
        }
        let fix = "Add a string that tells the user, in the app's languages, what tracking is for; the system shows it in the tracking prompt."
        guard let value else {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .missing,
                message: "is missing; the app uses App Tracking Transparency, and the tracking prompt needs this text",
                fix: fix, snippet: trackingUsageDescriptionSnippet)
        }
        guard let text = value as? String else {
            let found = typeName(value)
            return InfoPlistFinding(
                severity: .error, key: key, problem: .wrongType(found: found),
                message: "is \(article(found)) \(found); it must be a string, the text of the tracking prompt",
                fix: fix, snippet: trackingUsageDescriptionSnippet)
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .blank,
                message: text.isEmpty ? "is an empty string; the tracking prompt would have no explanation" : "holds only whitespace; the tracking prompt would have no explanation",
                fix: fix, snippet: trackingUsageDescriptionSnippet)
        }
        if isBuildSettingReference(text) {
            return buildSettingFinding(key: key, found: text)
        }
        return nil
    }

    private static func applicationIdentifier(_ value: Any?) -> InfoPlistFinding? {
        let key = InfoPlistKey.gadApplicationIdentifier
        let fix = "Add the app's AdMob app ID as a string, shaped ca-app-pub-<16 digits>~<10 digits>."
        guard let value else {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .missing,
                message: "is missing; the Google Mobile Ads SDK and Google's User Messaging Platform need the app ID",
                fix: fix, snippet: applicationIdentifierSnippet)
        }
        guard let id = value as? String else {
            let found = typeName(value)
            return InfoPlistFinding(
                severity: .error, key: key, problem: .wrongType(found: found),
                message: "is \(article(found)) \(found); it must be a string",
                fix: fix, snippet: applicationIdentifierSnippet)
        }
        if isBuildSettingReference(id) {
            return buildSettingFinding(key: key, found: id)
        }
        guard !isAppID(id) else { return nil }
        let message = isAdUnitID(id)
            ? "is \"\(id)\", an ad unit ID (with \"/\"); the app ID has \"~\" between the publisher and app numbers"
            : "is \"\(id)\", not an app ID shaped ca-app-pub-<16 digits>~<10 digits>"
        return InfoPlistFinding(
            severity: .error, key: key, problem: .malformed(found: id),
            message: message, fix: fix, snippet: applicationIdentifierSnippet)
    }

    private static func delayAppMeasurement(_ value: Any?) -> InfoPlistFinding? {
        let key = InfoPlistKey.gadDelayAppMeasurementInit
        let fix = "Set it to the Boolean YES, so Google's app measurement waits until the app starts the Mobile Ads SDK after consent."
        guard let value else {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .missing,
                message: "is missing; Google's app measurement starts sending user-level events at launch, before the app has consent",
                fix: fix, snippet: delayAppMeasurementSnippet)
        }
        let found = typeName(value)
        guard found == "boolean" else {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .wrongType(found: found),
                message: "is \(article(found)) \(found)\(describe(value)); Google documents a Boolean (<true/>), not \(article(found)) \(found)",
                fix: fix, snippet: delayAppMeasurementSnippet)
        }
        guard (value as? NSNumber)?.boolValue == true else {
            return InfoPlistFinding(
                severity: .error, key: key, problem: .notTrue,
                message: "is NO; Google's app measurement starts sending user-level events at launch, before the app has consent",
                fix: fix, snippet: delayAppMeasurementSnippet)
        }
        return nil
    }

    private static func buildSettingFinding(key: InfoPlistKey, found: String) -> InfoPlistFinding {
        InfoPlistFinding(
            severity: .warning, key: key, problem: .buildSettingReference(found: found),
            message: "is \"\(found)\", a build setting filled in when the app is built, so its value cannot be checked here",
            fix: "Check the built app's Info.plist (MyApp.app/Info.plist) instead.",
            snippet: nil)
    }

    // MARK: - Values

    /// `ca-app-pub-` then 16 digits, `~`, 10 digits.
    static func isAppID(_ id: String) -> Bool {
        guard id.hasPrefix("ca-app-pub-") else { return false }
        let numbers = id.dropFirst("ca-app-pub-".count).split(separator: "~", omittingEmptySubsequences: false)
        return numbers.count == 2 && isDigits(numbers[0], count: 16) && isDigits(numbers[1], count: 10)
    }

    /// `ca-app-pub-<digits>/<digits>`: an ad unit ID put where the app ID belongs.
    private static func isAdUnitID(_ id: String) -> Bool {
        guard id.hasPrefix("ca-app-pub-") else { return false }
        let numbers = id.dropFirst("ca-app-pub-".count).split(separator: "/", omittingEmptySubsequences: false)
        return numbers.count == 2 && numbers.allSatisfy { isDigits($0, count: $0.count) && !$0.isEmpty }
    }

    private static func isDigits(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isBuildSettingReference(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${")
    }

    /// The plist type of a value as `PropertyListSerialization` returns it: `string`, `boolean`,
    /// `integer`, `real`, `date`, `data`, `array`, `dictionary`.
    ///
    /// Booleans are told from numbers by the number's type encoding (`c`), which is what both
    /// Apple's Foundation (`CFBoolean`) and swift-corelibs-foundation (`Bool`) give for `<true/>`
    /// and `<false/>`; `as? Bool` alone would also accept the integers 0 and 1.
    static func typeName(_ value: Any) -> String {
        switch value {
        case is String: return "string"
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return "boolean"
            case "d", "f": return "real"
            default: return "integer"
            }
        case is Date: return "date"
        case is Data: return "data"
        case is [Any]: return "array"
        case is [String: Any], is [AnyHashable: Any]: return "dictionary"
        default: return "\(type(of: value))"
        }
    }

    /// ` "YES"` for a string, ` 1` for a number: the value after its type, when short.
    private static func describe(_ value: Any) -> String {
        if let text = value as? String { return text.count <= 40 ? " \"\(text)\"" : "" }
        if let number = value as? NSNumber { return " \(number)" }
        return ""
    }

    private static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        return (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
    }
}
