import Foundation
import SQLKit

/// The schema, as an ordered list of migrations that run the same on SQLite and PostgreSQL.
///
/// Each migration runs once, in its own transaction, and is recorded in `schema_migrations`.
/// Append new migrations at the end; never edit one that has shipped.
public enum Migrations {
    struct Migration {
        let version: Int
        let name: String
        let statements: [SQLQueryString]
    }

    static let all: [Migration] = [
        Migration(version: 1, name: "consent database", statements: [
            // Keys: only a SHA-256 of the secret part is stored.
            """
            CREATE TABLE api_keys (
                key_id TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                secret_sha256 TEXT NOT NULL,
                label TEXT NOT NULL,
                created_at_ms BIGINT NOT NULL,
                revoked_at_ms BIGINT
            )
            """,
            "CREATE INDEX api_keys_app ON api_keys (app_id)",
            // The head of each app's hash chain; its row lock orders an app's appends across nodes.
            """
            CREATE TABLE app_chains (
                app_id TEXT PRIMARY KEY,
                last_sequence BIGINT NOT NULL,
                last_hash TEXT NOT NULL
            )
            """,
            // Every consent event, in chain order. After erasure only the non-personal columns
            // (sequence, event id, hashes, received time) remain.
            """
            CREATE TABLE consent_events (
                app_id TEXT NOT NULL,
                sequence BIGINT NOT NULL,
                event_id TEXT NOT NULL,
                subject_hash TEXT,
                collected_at_ms BIGINT,
                received_at_ms BIGINT NOT NULL,
                credential TEXT NOT NULL,
                outcome TEXT NOT NULL,
                request_sha256 TEXT,
                record TEXT,
                response TEXT,
                record_hash TEXT NOT NULL,
                chain_hash TEXT NOT NULL,
                PRIMARY KEY (app_id, sequence),
                UNIQUE (event_id, app_id)
            )
            """,
            // The subject hash is keyed by app (see ServerSecret.subjectHash): it alone finds a
            // subject's rows. Lookups by event id or subject hash never add `app_id = …` as an
            // index condition: PostgreSQL estimates one row for an app its statistics have not
            // seen yet and would then scan that app's whole chain instead of the key's index.
            "CREATE INDEX consent_events_subject ON consent_events (subject_hash, sequence)",
            // The current state per subject: last writer wins on (collected_at_ms, event_id).
            """
            CREATE TABLE subjects (
                app_id TEXT NOT NULL,
                subject_hash TEXT NOT NULL,
                event_id TEXT NOT NULL,
                event_sequence BIGINT NOT NULL,
                collected_at_ms BIGINT NOT NULL,
                received_at_ms BIGINT NOT NULL,
                consent TEXT NOT NULL,
                PRIMARY KEY (subject_hash)
            )
            """,
            """
            CREATE TABLE erasure_receipts (
                receipt_id TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                erased_at_ms BIGINT NOT NULL,
                events_erased BIGINT NOT NULL
            )
            """,
        ]),
        Migration(version: 2, name: "erased subjects", statements: [
            // Subjects erased, by their keyed hash alone: so that no credential held before the
            // erasure can write them again (see ErasedSubject). Restarting one is the backend's act.
            """
            CREATE TABLE erased_subjects (
                subject_hash TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                erased_at_ms BIGINT NOT NULL,
                restarted_at_ms BIGINT
            )
            """,
        ]),
        Migration(version: 3, name: "subject information", statements: [
            // An event's subject information (e-mail, names), AES-GCM encrypted under a key derived
            // from the server secret (see SealedSubjectInformation); its keyed hash is in the
            // record. NULL for events without, and after an erasure.
            "ALTER TABLE consent_events ADD COLUMN subject_information TEXT",
        ]),
        Migration(version: 4, name: "gpp values", statements: [
            // The values of an event's GPP string (in its record) that queries read: the section
            // the choice was made under, its sale, sharing and targeted-advertising opt-outs and
            // the GPC signal, each 1, 0 or NULL (no such field, or not applicable; see
            // GPPEventValues). NULL for events without a GPP string, and after an erasure.
            "ALTER TABLE consent_events ADD COLUMN gpp_section_id INTEGER",
            "ALTER TABLE consent_events ADD COLUMN gpp_sale_opt_out INTEGER",
            "ALTER TABLE consent_events ADD COLUMN gpp_sharing_opt_out INTEGER",
            "ALTER TABLE consent_events ADD COLUMN gpp_targeted_advertising_opt_out INTEGER",
            "ALTER TABLE consent_events ADD COLUMN gpp_gpc INTEGER",
        ]),
        Migration(version: 5, name: "subject states per kind", statements: [
            // A subject has one current state per record kind (the TCF decision, the US choice:
            // decision record 0035), so `subjects` is keyed by subject and kind. Rebuilt, as
            // SQLite cannot change a primary key; every row stored before is a TCF one.
            """
            CREATE TABLE subject_states (
                app_id TEXT NOT NULL,
                subject_hash TEXT NOT NULL,
                kind TEXT NOT NULL,
                event_id TEXT NOT NULL,
                event_sequence BIGINT NOT NULL,
                collected_at_ms BIGINT NOT NULL,
                received_at_ms BIGINT NOT NULL,
                consent TEXT NOT NULL,
                PRIMARY KEY (subject_hash, kind)
            )
            """,
            """
            INSERT INTO subject_states (app_id, subject_hash, kind, event_id, event_sequence, collected_at_ms, received_at_ms, consent)
            SELECT app_id, subject_hash, 'tcf', event_id, event_sequence, collected_at_ms, received_at_ms, consent FROM subjects
            """,
            "DROP TABLE subjects",
            "ALTER TABLE subject_states RENAME TO subjects",
        ]),
        Migration(version: 6, name: "console sign-in and access", statements: [
            // The console's operators (decision 0038): the e-mail unique in any case (email_key is
            // it lower-cased); the password as one scrypt string (PasswordHash), NULL until a
            // one-time link made for the operator is used.
            """
            CREATE TABLE console_operators (
                operator_id TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                email_key TEXT NOT NULL UNIQUE,
                role TEXT NOT NULL,
                password_hash TEXT,
                created_at_ms BIGINT NOT NULL,
                disabled_at_ms BIGINT
            )
            """,
            // Failed sign-ins and lockouts per e-mail, operator or not (SignInThrottle).
            """
            CREATE TABLE console_sign_in_failures (
                email_key TEXT PRIMARY KEY,
                failures BIGINT NOT NULL,
                last_failure_at_ms BIGINT NOT NULL,
                locked_until_ms BIGINT
            )
            """,
            // Sessions: only the SHA-256 of the id the cookie carries.
            """
            CREATE TABLE console_sessions (
                session_sha256 TEXT PRIMARY KEY,
                operator_id TEXT NOT NULL,
                csrf_token TEXT NOT NULL,
                created_at_ms BIGINT NOT NULL,
                last_seen_at_ms BIGINT NOT NULL
            )
            """,
            "CREATE INDEX console_sessions_operator ON console_sessions (operator_id)",
            // One-time links: only the SHA-256 of the token; operator_id NULL for the first owner's.
            """
            CREATE TABLE console_one_time_links (
                token_sha256 TEXT PRIMARY KEY,
                operator_id TEXT,
                role TEXT NOT NULL,
                created_at_ms BIGINT NOT NULL,
                expires_at_ms BIGINT NOT NULL,
                used_at_ms BIGINT
            )
            """,
            // The audit log; entry_id starts with the time, so it orders the entries and pages them.
            """
            CREATE TABLE console_audit (
                entry_id TEXT PRIMARY KEY,
                at_ms BIGINT NOT NULL,
                operator_id TEXT,
                action TEXT NOT NULL,
                target TEXT,
                address TEXT
            )
            """,
        ]),
        Migration(version: 7, name: "consent analytics", statements: [
            // The rollups of consent analytics (docs/decisions/0039), kept by the append path in the
            // event's own transaction (see AnalyticsTally). `day` is the UTC day of collection, in
            // days since 1970-01-01. Choices: events per app, dimension (`all`, `region`,
            // `language`, `platform`, `noticeVersion`, `method`), day, the dimension's value and
            // the outcome (ChoiceOutcome): one row per dimension, so a chart by one dimension reads
            // that dimension's rows alone.
            """
            CREATE TABLE analytics_choices (
                app_id TEXT NOT NULL,
                dimension TEXT NOT NULL,
                day BIGINT NOT NULL,
                value TEXT NOT NULL,
                outcome TEXT NOT NULL,
                events BIGINT NOT NULL,
                PRIMARY KEY (app_id, dimension, day, value, outcome)
            )
            """,
            // Counts per app, kind, day and item: opt-ins per purpose and vendor, the Google split,
            // the US opt-outs, and the events each rate is out of (AnalyticsCount.Kind).
            """
            CREATE TABLE analytics_counts (
                app_id TEXT NOT NULL,
                day BIGINT NOT NULL,
                kind TEXT NOT NULL,
                item TEXT NOT NULL,
                events BIGINT NOT NULL,
                PRIMARY KEY (app_id, kind, day, item)
            )
            """,
            // The region the event was sent from, as the rollups count it: what an erasure subtracts.
            // NULL for events stored before this migration (never counted) and after an erasure.
            "ALTER TABLE consent_events ADD COLUMN analytics_region TEXT",
        ]),
        Migration(version: 8, name: "configuration in the database", statements: [
            // The publisher configuration (decision 0041): one JSON document per publisher, app and
            // website, spelled as publishers.yaml spells its entries (ConfigurationDocument), read
            // back through the YAML reader. `kind` is publisher, app or website.
            """
            CREATE TABLE config_entries (
                kind TEXT NOT NULL,
                entry_id TEXT NOT NULL,
                document TEXT NOT NULL,
                updated_at_ms BIGINT NOT NULL,
                PRIMARY KEY (kind, entry_id)
            )
            """,
            // One row: the configuration's version, raised by every change (the nodes poll it and
            // reload when it moved), and the SHA-256 of the publishers file last imported.
            """
            CREATE TABLE config_state (
                id INTEGER PRIMARY KEY,
                version BIGINT NOT NULL,
                imported_sha256 TEXT,
                imported_at_ms BIGINT,
                updated_at_ms BIGINT NOT NULL
            )
            """,
            "INSERT INTO config_state (id, version, updated_at_ms) VALUES (1, 0, 0)",
            // When each key was last used, written from memory at most once a minute per key (KeyUsage).
            "ALTER TABLE api_keys ADD COLUMN last_used_at_ms BIGINT",
        ]),
        // Migration 9 (decision record 0043): the notice's versions per app or website, edited in
        // the console. A draft's row changes until it is published; then never again. A published
        // version holds the noticeVersion its publication raised the app to, the
        // materialNoticeVersion in force after it, and since when that one is in force.
        Migration(version: 9, name: "notice versions", statements: [
            """
            CREATE TABLE notice_versions (
                app_id TEXT NOT NULL,
                version BIGINT NOT NULL,
                state TEXT NOT NULL,
                options TEXT NOT NULL,
                created_at_ms BIGINT NOT NULL,
                created_by TEXT,
                updated_at_ms BIGINT NOT NULL,
                published_at_ms BIGINT,
                published_by TEXT,
                notice_version BIGINT,
                material_version BIGINT,
                material_since_ms BIGINT,
                reask BIGINT,
                PRIMARY KEY (app_id, version)
            )
            """,
            "CREATE UNIQUE INDEX notice_versions_published ON notice_versions (app_id, notice_version)",
        ]),
    ]

    /// The newest schema version this build knows.
    static var latestVersion: Int { all.last?.version ?? 0 }

    /// Brings the schema up to date; returns the versions applied now.
    ///
    /// Safe to run from several nodes at once: on PostgreSQL each migration's transaction first
    /// takes an advisory lock, so nodes apply migrations one after the other and each re-checks
    /// the version under the lock; on SQLite the writer's `BEGIN IMMEDIATE` does the same.
    @discardableResult
    public static func run(on database: Database) async throws -> [Int] {
        var applied: [Int] = []
        for migration in all {
            let done = try await database.transaction { db -> Bool in
                if database.engine == .postgresql {
                    try await db.raw("SELECT pg_advisory_xact_lock(\(literal: advisoryLockKey))").run()
                }
                try await db.raw("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version BIGINT PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_at_ms BIGINT NOT NULL
                    )
                    """).run()
                let current = try await currentVersion(db)
                if current > latestVersion { throw DatabaseError.schemaTooNew(found: current, known: latestVersion) }
                if current >= migration.version { return false }
                for statement in migration.statements {
                    try await db.raw(statement).run()
                }
                let now = Int(Date().timeIntervalSince1970 * 1000)
                try await db.raw("""
                    INSERT INTO schema_migrations (version, name, applied_at_ms)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))
                    """).run()
                return true
            }
            if done { applied.append(migration.version) }
        }
        return applied
    }

    /// The advisory lock consentd's migrations hold on PostgreSQL ("consentd" in ASCII).
    static let advisoryLockKey = 0x636F_6E73_656E_7464

    /// The highest version recorded, 0 for an empty database.
    static func currentVersion(_ db: any SQLDatabase) async throws -> Int {
        let row = try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()
        return try row?.decode(column: "version", as: Int?.self) ?? 0
    }
}
