import ConsentdAPI
import Foundation
import Synchronization

/// The notice an app's users are shown now: its latest published version.
struct PublishedNotice: Sendable, Equatable {
    /// The app id.
    var appId: String
    /// The version's number.
    var version: Int
    /// The notice version decisions are recorded under.
    var noticeVersion: Int
    /// Decisions under an older notice version than this are asked again (``ConsentKit/AskRules/materialNoticeVersion``).
    var materialVersion: Int
    /// When the material version was published: a website's stored TC string carries no notice
    /// version, so a decision last updated before that day is asked again.
    var materialSince: Date
    /// What the notice shows.
    var options: NoticeOptions
}

/// The published notices by app id, held in memory so that serving a notice reads no database:
/// loaded at start, replaced by each publication of this process.
final class PublishedNotices: Sendable {
    private let held = Mutex<[String: PublishedNotice]>([:])

    /// An empty set.
    init() {}

    /// The notice published for `appId`, nil when none was.
    func notice(appId: String) -> PublishedNotice? {
        held.withLock { $0[appId] }
    }

    /// Holds `notice` as its app's.
    func set(_ notice: PublishedNotice) {
        held.withLock { $0[notice.appId] = notice }
    }

    /// Replaces every notice held.
    func replaceAll(_ notices: [PublishedNotice]) {
        held.withLock { held in held = Dictionary(notices.map { ($0.appId, $0) }, uniquingKeysWith: { $1 }) }
    }
}
