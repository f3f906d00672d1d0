import ConsentKitFormats
import Foundation
import SQLKit

extension ConsentStore {
    /// Counts a notice of `appId` closed without a choice (docs/decisions/0044): one
    /// ``ChoiceOutcome/closed`` in the choice rollups, on the UTC day of `closedAt`, under
    /// `region` (as the analytics count the region an event was sent from) and the close's
    /// language, platform, notice version and method. No consent event is written and no
    /// subject is named or hashed: the count is all that is kept, so an erasure has nothing of
    /// it to take back.
    ///
    /// The app's chain head is taken first, as appends and erasures take it before they write the
    /// rollups, so the rollup writes of the three never interleave into a deadlock (PostgreSQL).
    public func recordClose(_ close: NoticeClose, appId: String, region: String, closedAt: Date = Date()) async throws {
        var tally = AnalyticsTally()
        tally.add(close, region: region, closedAt: ISO8601.milliseconds(of: closedAt))
        let engine = database.engine
        let upserts = tally.upserts(appId: appId)
        try await database.transaction { db in
            _ = try await Self.lockHead(appId: appId, in: db, engine: engine)
            for statement in upserts { try await db.raw(statement).run() }
        }
    }
}
