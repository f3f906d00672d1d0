import ConsentKitFormats
import ConsentdAPI
import Foundation

/// One decision waiting to reach consentd.
struct OutboxEntry: Codable, Sendable, Equatable {
    /// Who the event is for: ``installation`` (consentd's anonymous subject of this installation)
    /// or `user:<id>`, as when the decision was made.
    var subject: String
    /// The event, without its `subjectId` (filled in when it is sent).
    var event: ConsentEventRequest
    /// The decision itself, in the manager's record form, so that a start after a crash between
    /// the outbox and the keys can finish writing the keys.
    var record: String
    /// For the held decision queued again for another subject (seed 002's "local is newer"):
    /// the event id it was first sent with.
    var copyOf: String?

    static let installation = "installation"
    static func user(_ id: String) -> String { "user:\(id)" }
    static func userId(of subject: String) -> String? { subject.hasPrefix("user:") ? String(subject.dropFirst(5)) : nil }

    var eventId: String { event.eventId }
    var userId: String? { Self.userId(of: subject) }
}

/// What the outbox let go at its bound: how many of the oldest events, from when to when.
struct DroppedSummary: Codable, Sendable, Equatable {
    var count: Int
    var firstCollectedAt: String
    var lastCollectedAt: String
}

/// The outbox: the events not yet acknowledged by consentd, in order, on disk in an
/// ``OutboxLog`` (`outbox.jsonl`), and the events consentd refused, in `dead-letter.jsonl`.
///
/// Lines are `{"add": entry}`, `{"sent": [eventId, …]}` and `{"dropped": summary}`. The file is
/// rewritten (atomically) when everything in it was sent, when it holds many sent entries, at
/// the bound, and when entries change subject. Not thread-safe: the sync client serialises calls.
final class Outbox {
    private let log: OutboxLog
    private let deadLetterLog: OutboxLog
    let capacity: Int
    /// The entries not yet acknowledged, oldest first.
    private(set) var pending: [OutboxEntry] = []
    private(set) var dropped: DroppedSummary?
    private(set) var deadLettered = 0
    /// Lines of the file that are no longer needed (sent entries and their acknowledgements).
    private var spentLines = 0

    /// One line: an object with one key naming what it is.
    private enum Line: Codable {
        case add(OutboxEntry)
        case sent([String])
        case dropped(DroppedSummary)

        private enum Key: String, CodingKey { case add, sent, dropped }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a line has exactly one of add, sent, dropped"))
            }
            switch key {
            case .add: self = .add(try container.decode(OutboxEntry.self, forKey: .add))
            case .sent: self = .sent(try container.decode([String].self, forKey: .sent))
            case .dropped: self = .dropped(try container.decode(DroppedSummary.self, forKey: .dropped))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .add(let entry): try container.encode(entry, forKey: .add)
            case .sent(let ids): try container.encode(ids, forKey: .sent)
            case .dropped(let summary): try container.encode(summary, forKey: .dropped)
            }
        }
    }

    /// A dead-letter line: the event and consentd's answer.
    struct DeadLetter: Codable {
        var entry: OutboxEntry
        var status: Int
        var error: ConsentdErrorBody.Detail
        var at: String
    }

    /// Opens the outbox in `directory`, reading what is there. A file with a line that cannot
    /// be read is set aside and its readable entries kept; `problems` says so.
    init(directory: URL, capacity: Int) throws(OutboxLogError) {
        self.capacity = capacity
        log = try OutboxLog(url: directory.appendingPathComponent("outbox.jsonl"))
        deadLetterLog = try OutboxLog(url: directory.appendingPathComponent("dead-letter.jsonl"))
        deadLettered = try deadLetterLog.read().lines.count
    }

    /// Reads the file; returns the corruption found, if any (the file is then set aside and
    /// rewritten with what could be read).
    func load(now: Date) throws(OutboxLogError) -> SyncError? {
        let contents = try log.read()
        var entries: [OutboxEntry] = []
        var sent = Set<String>()
        var corruption: (line: Int, reason: String)?
        let decoder = JSONDecoder()
        for (number, text) in contents.lines {
            do {
                switch try decoder.decode(Line.self, from: text) {
                case .add(let entry): entries.append(entry)
                case .sent(let ids): sent.formUnion(ids)
                case .dropped(let summary): dropped = summary
                }
            } catch {
                if corruption == nil { corruption = (number, Self.reason(error)) }
            }
        }
        pending = entries.filter { !sent.contains($0.eventId) }
        spentLines = contents.lines.count - pending.count
        guard let corruption else { return nil }
        let aside = try log.setAside(at: now)
        try rewrite()
        return .fileCorrupt(path: log.url.path, line: corruption.line, reason: corruption.reason, setAsideAt: aside.path)
    }

    /// The newest entry in the file, read from the end of its content without reading the rest:
    /// what a start compares with the keys (a crash between the outbox and the keys leaves it
    /// newer). The content ends where the zero tail begins, found by bisection.
    static func newestEntry(in directory: URL) -> OutboxEntry? {
        let url = directory.appendingPathComponent("outbox.jsonl")
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return nil }
        func byte(at offset: UInt64) -> UInt8? {
            guard (try? handle.seek(toOffset: offset)) != nil else { return nil }
            return (try? handle.read(upToCount: 1))?.first
        }
        // The first zero byte: content is never zero, the tail always is.
        var low: UInt64 = 0
        var high = size
        while low < high {
            let middle = (low + high) / 2
            guard let value = byte(at: middle) else { return nil }
            if value == 0 { high = middle } else { low = middle + 1 }
        }
        let end = low
        var window: UInt64 = 16 * 1024
        while true {
            let start = end > window ? end - window : 0
            guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.read(upToCount: Int(end - start)) else { return nil }
            var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            // The first line of a window that starts mid-file may be cut; a last one without its
            // newline is torn (reading the log drops it too).
            if data.last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
            for line in lines.reversed() where line.starts(with: Array(#"{"add":"#.utf8)) {
                if let decoded = try? JSONDecoder().decode([String: OutboxEntry].self, from: Data(line)), let entry = decoded["add"] {
                    return entry
                }
            }
            if start == 0 { return nil }
            window *= 4
        }
    }

    /// Appends `entry`, durable when this returns; at the bound, the oldest entries are let go
    /// for a summary and their number returned.
    @discardableResult
    func add(_ entry: OutboxEntry) throws(OutboxLogError) -> Int {
        try log.append(Self.encode(.add(entry)))
        pending.append(entry)
        guard pending.count > capacity else { return 0 }
        let excess = pending.count - capacity
        let gone = pending.prefix(excess)
        let earlier = dropped
        dropped = DroppedSummary(
            count: (earlier?.count ?? 0) + excess, firstCollectedAt: earlier?.firstCollectedAt ?? gone.first!.event.collectedAt,
            lastCollectedAt: gone.last!.event.collectedAt)
        pending.removeFirst(excess)
        // The entry is durable already; should the compaction fail, the file keeps them all
        // (the next successful rewrite drops them).
        try? rewrite()
        return excess
    }

    /// Records that consentd acknowledged these events; rewrites the file when it is mostly spent,
    /// and at once with `compacting` (the subject-creating event: replayed with any live
    /// publishable key it would mint a new token for the subject, so it is a credential, and
    /// must not stay in the file once sent).
    func markSent(_ eventIds: [String], compacting: Bool = false) throws(OutboxLogError) {
        guard !eventIds.isEmpty else { return }
        let ids = Set(eventIds)
        let before = pending.count
        pending.removeAll { ids.contains($0.eventId) }
        spentLines += before - pending.count + 1
        if compacting || pending.isEmpty || spentLines > 4 * max(pending.count, 64) {
            try rewrite()
        } else {
            try log.append(Self.encode(.sent(eventIds)))
        }
    }

    /// Moves `entry` to the dead-letter file with consentd's answer, then out of the outbox.
    func deadLetter(_ entry: OutboxEntry, status: Int, error: ConsentdErrorBody.Detail, at date: Date) throws(OutboxLogError) {
        let line = DeadLetter(entry: entry, status: status, error: error, at: ISO8601.format(date))
        guard let data = try? JSONEncoder().encode(line) else { return }
        try deadLetterLog.append(data)
        deadLettered += 1
        try markSent([entry.eventId])
    }

    /// The dead-letter file's lines (for the app's support tooling and tests).
    func deadLetters() -> [DeadLetter] {
        ((try? deadLetterLog.read().lines) ?? []).compactMap { try? JSONDecoder().decode(DeadLetter.self, from: $0.text) }
    }

    /// Gives the pending entries of subject `from` to subject `to` (the person who just signed
    /// in made them on this installation), each under a new event id (consentd's idempotency is
    /// per subject: the old id may be stored for `from` already, its answer lost); returns the
    /// new ids by old.
    @discardableResult
    func rebind(from: String, to: String) throws(OutboxLogError) -> [String: String] {
        guard pending.contains(where: { $0.subject == from }) else { return [:] }
        var renamed: [String: String] = [:]
        for index in pending.indices where pending[index].subject == from {
            let old = pending[index].eventId
            let new = UUID().uuidString.lowercased()
            pending[index].subject = to
            pending[index].event.eventId = new
            pending[index].copyOf = pending[index].copyOf ?? old
            renamed[old] = new
        }
        try rewrite()
        return renamed
    }

    /// Writes the file anew with only what is needed: the summary and the pending entries.
    private func rewrite() throws(OutboxLogError) {
        var lines = dropped.map { [Self.encode(.dropped($0))] } ?? []
        lines += pending.map { Self.encode(.add($0)) }
        try log.replace(with: lines)
        spentLines = 0
    }

    private static func encode(_ line: Line) -> Data {
        // Encoding these plain values cannot fail.
        (try? JSONEncoder().encode(line)) ?? Data("{}".utf8)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "not JSON: \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: String(describing: error)
        }
    }
}
