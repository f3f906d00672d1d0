import ConsentKitFormats
import ConsentdAPI
import Foundation
import SQLKit
import Synchronization

/// One version of an app's or website's notice (decision record 0043): a draft until it is
/// published, then never changed again.
struct NoticeVersion: Codable, Sendable, Equatable {
    /// The app (or website's app) id.
    var appId: String
    /// The version's number among the app's versions, from 1, in the order they were created.
    var version: Int
    /// `draft` or `published`.
    var state: String
    /// What the notice shows.
    var options: NoticeOptions
    /// When it was created (ISO 8601), and by which operator.
    var createdAt: String
    var createdBy: String?
    /// When the draft was last changed (ISO 8601).
    var updatedAt: String
    /// When it was published (ISO 8601), and by which operator; nil for a draft.
    var publishedAt: String?
    var publishedBy: String?
    /// The `noticeVersion` its publication raised the app to (the proof's notice version); nil for a draft.
    var noticeVersion: Int?
    /// The `materialNoticeVersion` in force once it was published: its own `noticeVersion` when
    /// its publication asked users again, else the one before; nil for a draft.
    var materialVersion: Int?
    /// Whether its publication asked every user again; nil for a draft.
    var reask: Bool?
}

/// The notice versions of every app, in the database (`notice_versions`, migration 9): drafts
/// created and edited in the console, published once, every version kept.
final class NoticeVersions: Sendable {
    let database: Database
    let audit: AuditLog
    /// The latest published version of each app.
    let published: PublishedNotices

    init(database: Database, published: PublishedNotices) {
        self.database = database
        self.audit = AuditLog(database: database)
        self.published = published
    }

    /// Reads every app's latest published version into ``published``.
    func load() async throws {
        let notices = try await database.read { db in
            try await db.raw("""
                SELECT v.* FROM notice_versions v
                WHERE v.notice_version = (SELECT MAX(w.notice_version) FROM notice_versions w WHERE w.app_id = v.app_id)
                """).all().map(Self.publishedNotice(row:))
        }
        published.replaceAll(notices.compactMap { $0 })
    }

    /// Every version of `appId`, newest first.
    func list(appId: String) async throws -> [NoticeVersion] {
        try await database.read { db in
            try await db.raw("SELECT * FROM notice_versions WHERE app_id = \(bind: appId) ORDER BY version DESC").all().map(Self.version(from:))
        }
    }

    /// Version `version` of `appId`; 404 `notice_version_unknown` when there is none.
    func get(appId: String, version: Int) async throws -> NoticeVersion {
        let found = try await database.read { db in
            try await db.raw("SELECT * FROM notice_versions WHERE app_id = \(bind: appId) AND version = \(bind: version)").first()
                .map(Self.version(from:))
        }
        guard let found else { throw Self.unknown(appId: appId, version: version) }
        return found
    }

    /// A new draft of `appId` holding `options`, numbered after the app's last version.
    func createDraft(appId: String, options: NoticeOptions, by operatorId: String, address: String, now: Date) async throws -> NoticeVersion {
        let milliseconds = ISO8601.milliseconds(of: now)
        let text = try Self.text(of: options)
        let version = try await database.transaction { db in
            try await self.lock(appId: appId, db)
            let row = try await db.raw("SELECT MAX(version) AS version FROM notice_versions WHERE app_id = \(bind: appId)").first()
            let next = (try row?.decode(column: "version", as: Int?.self) ?? 0) + 1
            try await db.raw("""
                INSERT INTO notice_versions (app_id, version, state, options, created_at_ms, created_by, updated_at_ms)
                VALUES (\(bind: appId), \(bind: next), 'draft', \(bind: text), \(bind: milliseconds), \(bind: operatorId), \(bind: milliseconds))
                """).run()
            try await self.audit.record(.noticeDraftCreated, operatorId: operatorId, target: "\(appId) v\(next)", address: address, at: now, in: db)
            return next
        }
        return try await get(appId: appId, version: version)
    }

    /// Replaces the options of draft `version` of `appId`; 409 `notice_version_published` for a
    /// published version, which never changes.
    func updateDraft(appId: String, version: Int, options: NoticeOptions, by operatorId: String, address: String, now: Date) async throws
        -> NoticeVersion {
        let text = try Self.text(of: options)
        let milliseconds = ISO8601.milliseconds(of: now)
        try await database.transaction { db in
            try await self.lock(appId: appId, db)
            try await self.requireDraft(appId: appId, version: version, db)
            try await db.raw("""
                UPDATE notice_versions SET options = \(bind: text), updated_at_ms = \(bind: milliseconds)
                WHERE app_id = \(bind: appId) AND version = \(bind: version) AND state = 'draft'
                """).run()
            try await self.audit.record(.noticeDraftUpdated, operatorId: operatorId, target: "\(appId) v\(version)", address: address, at: now,
                                        in: db)
        }
        return try await get(appId: appId, version: version)
    }

    /// Publishes draft `version` of `appId`: it gets the app's next notice version, and asks
    /// every user again when its options differ materially from those published before
    /// (``NoticeOptions/isMaterialChange(from:)``, against `baseline` for the first) or when
    /// `reask` says so. The served notice changes at once (``published``), and in the other
    /// processes on the database at their next poll: publishing raises the configuration version.
    func publish(appId: String, version: Int, reask: Bool, baseline: NoticeOptions, by operatorId: String, address: String, now: Date)
        async throws -> NoticeVersion {
        let milliseconds = ISO8601.milliseconds(of: now)
        try await database.transaction { db in
            try await self.lock(appId: appId, db)
            let draft = try await self.requireDraft(appId: appId, version: version, db)
            let previous = try await db.raw("""
                SELECT * FROM notice_versions WHERE app_id = \(bind: appId) AND notice_version IS NOT NULL
                ORDER BY notice_version DESC LIMIT 1
                """).first().map(Self.version(from:))
            let noticeVersion = (previous?.noticeVersion ?? 0) + 1
            let material = reask || draft.options.isMaterialChange(from: previous?.options ?? baseline)
            let materialVersion = material ? noticeVersion : previous?.materialVersion ?? 0
            let materialSince: Int64
            if material {
                materialSince = milliseconds
            } else {
                materialSince = try await self.materialSince(appId: appId, materialVersion: materialVersion, db)
            }
            try await db.raw("""
                UPDATE notice_versions SET state = 'published', published_at_ms = \(bind: milliseconds), published_by = \(bind: operatorId),
                    notice_version = \(bind: noticeVersion), material_version = \(bind: materialVersion), material_since_ms = \(bind: materialSince),
                    reask = \(bind: material ? 1 : 0)
                WHERE app_id = \(bind: appId) AND version = \(bind: version) AND state = 'draft'
                """).run()
            // The other consentd processes on this database poll the configuration version: the
            // notice they serve and answer in /v1/config changes with it (PublisherReloader).
            try await ConfigurationStore.raiseVersion(db, at: milliseconds)
            try await self.audit.record(.noticePublished, operatorId: operatorId,
                                        target: "\(appId) v\(version) noticeVersion \(noticeVersion)\(material ? " reask" : "")",
                                        address: address, at: now, in: db)
        }
        let row = try await database.read { db in
            try await db.raw("SELECT * FROM notice_versions WHERE app_id = \(bind: appId) AND version = \(bind: version)").first()
        }
        guard let row, let notice = try Self.publishedNotice(row: row) else { throw Self.unknown(appId: appId, version: version) }
        self.published.set(notice)
        return try Self.version(from: row)
    }

    // MARK: - Rows

    /// Orders the writes of one app's versions: PostgreSQL takes a transaction lock on the app's
    /// name; SQLite's writer already runs one transaction at a time.
    private func lock(appId: String, _ db: any SQLDatabase) async throws {
        if database.engine == .postgresql {
            try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "notice_versions " + appId)))").run()
        }
    }

    @discardableResult
    private func requireDraft(appId: String, version: Int, _ db: any SQLDatabase) async throws -> NoticeVersion {
        guard let row = try await db.raw("SELECT * FROM notice_versions WHERE app_id = \(bind: appId) AND version = \(bind: version)").first() else {
            throw Self.unknown(appId: appId, version: version)
        }
        let found = try Self.version(from: row)
        guard found.state == "draft" else {
            throw APIError(.conflict, "notice_version_published",
                           "version \(version) of \(appId) is published and never changes: create a new draft from it (POST /v1/console/notices with from)",
                           field: "version")
        }
        return found
    }

    private func materialSince(appId: String, materialVersion: Int, _ db: any SQLDatabase) async throws -> Int64 {
        let row = try await db.raw("""
            SELECT published_at_ms FROM notice_versions WHERE app_id = \(bind: appId) AND notice_version = \(bind: materialVersion)
            """).first()
        return try row?.decode(column: "published_at_ms", as: Int64?.self) ?? 0
    }

    private static func unknown(appId: String, version: Int) -> APIError {
        APIError(.notFound, "notice_version_unknown", "\(appId) has no notice version \(version): GET /v1/console/notices?appId=\(appId) lists them",
                 field: "version")
    }

    private static func text(of options: NoticeOptions) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(options), as: UTF8.self)
    }

    private static func version(from row: any SQLRow) throws -> NoticeVersion {
        let options = try JSONDecoder().decode(NoticeOptions.self, from: Data(row.decode(column: "options", as: String.self).utf8))
        let publishedAt = try row.decode(column: "published_at_ms", as: Int64?.self)
        return try NoticeVersion(
            appId: row.decode(column: "app_id", as: String.self), version: row.decode(column: "version", as: Int.self),
            state: row.decode(column: "state", as: String.self), options: options,
            createdAt: ISO8601.format(milliseconds: row.decode(column: "created_at_ms", as: Int64.self)),
            createdBy: row.decode(column: "created_by", as: String?.self),
            updatedAt: ISO8601.format(milliseconds: row.decode(column: "updated_at_ms", as: Int64.self)),
            publishedAt: publishedAt.map { ISO8601.format(milliseconds: $0) }, publishedBy: row.decode(column: "published_by", as: String?.self),
            noticeVersion: row.decode(column: "notice_version", as: Int?.self), materialVersion: row.decode(column: "material_version", as: Int?.self),
            reask: row.decode(column: "reask", as: Int?.self).map { $0 != 0 })
    }

    private static func publishedNotice(row: any SQLRow) throws -> PublishedNotice? {
        let version = try version(from: row)
        guard let noticeVersion = version.noticeVersion, let materialVersion = version.materialVersion else { return nil }
        let since = try row.decode(column: "material_since_ms", as: Int64?.self) ?? 0
        return PublishedNotice(appId: version.appId, version: version.version, noticeVersion: noticeVersion, materialVersion: materialVersion,
                               materialSince: Date(timeIntervalSince1970: Double(since) / 1000), options: version.options)
    }
}
