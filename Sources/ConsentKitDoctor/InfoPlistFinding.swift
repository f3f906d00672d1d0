/// One problem ``InfoPlistCheck`` found in an Info.plist: which key, what is wrong with it and
/// what to change.
public struct InfoPlistFinding: Sendable, Equatable, CustomStringConvertible {
    /// How much a finding matters.
    public enum Severity: String, Sendable, Equatable {
        /// Something the app needs, given what it does, is missing or wrong: a prompt without
        /// its text, an ads SDK without its app ID, measurement that starts before consent.
        case error
        /// Something worth a look that may be right: a key for a feature the app says it does not
        /// use, or a value the build fills in and the check cannot see.
        case warning
    }

    /// What is wrong with the key, as a value to match on.
    public enum Problem: Sendable, Equatable {
        /// The key is not in the plist.
        case missing
        /// The value has the wrong plist type; `found` names the type that is there
        /// (`string`, `integer`, `boolean`, …).
        case wrongType(found: String)
        /// The string is empty or only whitespace.
        case blank
        /// The string does not have the expected shape; `found` is the value as written.
        case malformed(found: String)
        /// The Boolean is `NO` where `YES` is needed.
        case notTrue
        /// The value is a build-setting reference such as `$(ADMOB_APP_ID)`, filled in when the
        /// app is built; check the built app's Info.plist to see the value.
        case buildSettingReference(found: String)
        /// The key is there although the app does not use the feature it belongs to.
        case unused
    }

    /// Error or warning.
    public let severity: Severity
    /// The key the finding is about.
    public let key: InfoPlistKey
    /// What is wrong, as a value.
    public let problem: Problem
    /// What is wrong, as a sentence for a person.
    public let message: String
    /// What to change, as a sentence for a person.
    public let fix: String
    /// The exact plist XML to add (key and value), or nil when the fix is not an addition.
    public let snippet: String?

    /// A finding; ``InfoPlistCheck`` makes them.
    public init(severity: Severity, key: InfoPlistKey, problem: Problem, message: String, fix: String, snippet: String?) {
        self.severity = severity
        self.key = key
        self.problem = problem
        self.message = message
        self.fix = fix
        self.snippet = snippet
    }

    /// `error: KEY: message. fix` and, when there is one, the snippet on the next line.
    public var description: String {
        "\(severity.rawValue): \(key.rawValue): \(message). \(fix)" + (snippet.map { "\n    \($0)" } ?? "")
    }
}
