/// What the choice figures are grouped by (`analytics_choices.dimension`); the raw values are the API's.
public enum AnalyticsDimension: String, Sendable, CaseIterable {
    /// The region the event was sent from (`eea`, `uk`, `ch`, `us`, `us-ca`, `other`, `unknown`).
    case region
    /// The notice's language (the proof's).
    case language
    /// The platform (the proof's).
    case platform
    /// The notice version (the proof's).
    case noticeVersion
    /// The proof's method.
    case method

    /// The dimension (and its one value) under which every event counts once: no grouping.
    public static let all = "all"
}
