import ConsentdAPI
import Foundation
import Testing
@testable import ConsentKit

/// An outbox entry numbered `n`: collected `n` seconds (and 250 ms) after a fixed instant, with a
/// record of `recordSize` characters when given.
func sampleEntry(_ n: Int, subject: String = OutboxEntry.installation, recordSize: Int = 0) -> OutboxEntry {
    let proof = ConsentProof(noticeId: "notice", noticeVersion: "1", language: "en", sdkVersion: "test", platform: .other, method: .acceptAll)
    let event = ConsentEventRequest(
        collectedAt: Date(timeIntervalSince1970: 1_760_000_000.25 + Double(n)), consent: ConsentRecord(purposeConsents: [1, n], proof: proof))
    let record = recordSize > 0 ? "record-\(n)-" + String(repeating: "x", count: recordSize) : "record-\(n)"
    return OutboxEntry(subject: subject, event: event, record: record)
}

/// The bytes of the file at `url`.
private func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

/// The file's size on disk.
private func fileSize(_ url: URL) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue
}

/// The content of a preallocated log: everything before the first zero byte.
private func content(_ url: URL) throws -> Data {
    let data = try bytes(url)
    return data.prefix(while: { $0 != 0 })
}

private let fixedNow = Date(timeIntervalSince1970: 1_770_000_000)

@Suite("Outbox log and outbox")
struct OutboxTests {
    // MARK: OutboxLog

    @Test("appended lines are read back in order; the file is preallocated and its content ends at the first zero")
    func logAppendAndRead() throws {
        let folder = try TestFolder()
        let url = folder.url.appendingPathComponent("nested/log.jsonl")
        let texts = ["first", #"{"second":2}"#, "third line"]
        do {
            let log = try OutboxLog(url: url)
            #expect(try log.read().lines.isEmpty)
            for text in texts { try log.append(Data(text.utf8)) }
            // The same log reads what it wrote.
            let contents = try log.read()
            #expect(contents.lines.map { String(decoding: $0.text, as: UTF8.self) } == texts)
        }
        let expected = Data(texts.map { $0 + "\n" }.joined().utf8)
        #expect(try fileSize(url) == OutboxLog.growth)
        #expect(try fileSize(url) > expected.count)
        let raw = try bytes(url)
        #expect(raw.firstIndex(of: 0) == expected.count)
        #expect(raw.prefix(expected.count) == expected)
        #expect(raw.dropFirst(expected.count).allSatisfy { $0 == 0 })

        let reopened = try OutboxLog(url: url).read()
        #expect(reopened.lines.map { String(decoding: $0.text, as: UTF8.self) } == texts)
        #expect(reopened.lines.map(\.number) == [1, 2, 3])
        #expect(reopened.tornTail == 0)
    }

    @Test("a torn tail is dropped, reported, zeroed, and the next line goes where it was")
    func logTornTail() throws {
        let folder = try TestFolder()
        let url = folder.url.appendingPathComponent("log.jsonl")
        let texts = ["one", "two", "three"]
        do {
            let log = try OutboxLog(url: url)
            _ = try log.read()
            for text in texts { try log.append(Data(text.utf8)) }
        }
        let validEnd = Data(texts.map { $0 + "\n" }.joined().utf8).count
        // A write the process did not live to finish: part of a line, no newline, and a later
        // block of it further on in the zero area.
        let torn = Data(#"{"add":{"subject":"instal"#.utf8)
        let later = Data("lation\",\"more".utf8)
        let laterOffset = validEnd + 5_000
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(validEnd))
        try handle.write(contentsOf: torn)
        try handle.seek(toOffset: UInt64(laterOffset))
        try handle.write(contentsOf: later)
        try handle.close()
        #expect(try fileSize(url) == OutboxLog.growth)

        let log = try OutboxLog(url: url)
        let contents = try log.read()
        #expect(contents.lines.map { String(decoding: $0.text, as: UTF8.self) } == texts)
        #expect(contents.tornTail > 0)
        #expect(contents.tornTail == laterOffset + later.count - validEnd)
        // Zeroed on disk, the later block too.
        let raw = try bytes(url)
        #expect(raw.dropFirst(validEnd).allSatisfy { $0 == 0 })

        try log.append(Data("four".utf8))
        let again = try OutboxLog(url: url).read()
        #expect(again.lines.map { String(decoding: $0.text, as: UTF8.self) } == texts + ["four"])
        #expect(again.tornTail == 0)
        #expect(try content(url) == Data((texts + ["four"]).map { $0 + "\n" }.joined().utf8))
    }

    @Test("replace(with:) leaves exactly those lines, and appends go after them")
    func logReplace() throws {
        let folder = try TestFolder()
        let url = folder.url.appendingPathComponent("log.jsonl")
        let log = try OutboxLog(url: url)
        _ = try log.read()
        for text in ["a", "b", "c", "d"] { try log.append(Data(text.utf8)) }
        try log.replace(with: [Data("x".utf8), Data("y".utf8)])
        #expect(try log.read().lines.map { String(decoding: $0.text, as: UTF8.self) } == ["x", "y"])
        #expect(try OutboxLog(url: url).read().lines.map { String(decoding: $0.text, as: UTF8.self) } == ["x", "y"])
        #expect(try content(url) == Data("x\ny\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathExtension("new").path))

        try log.append(Data("z".utf8))
        #expect(try OutboxLog(url: url).read().lines.map { String(decoding: $0.text, as: UTF8.self) } == ["x", "y", "z"])

        try log.replace(with: [])
        #expect(try OutboxLog(url: url).read().lines.isEmpty)
        #expect(try content(url).isEmpty)
    }

    @Test("the log grows past its first 256 KiB")
    func logGrowth() throws {
        let folder = try TestFolder()
        let url = folder.url.appendingPathComponent("log.jsonl")
        let texts = (0..<300).map { String(format: "%04d", $0) + String(repeating: "k", count: 1_020) }
        do {
            let log = try OutboxLog(url: url)
            _ = try log.read()
            for text in texts { try log.append(Data(text.utf8)) }
        }
        let total = texts.reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(total > OutboxLog.growth)
        #expect(try fileSize(url) > total)
        #expect(try fileSize(url) % OutboxLog.growth == 0)
        let contents = try OutboxLog(url: url).read()
        #expect(contents.lines.count == 300)
        #expect(contents.lines.map { String(decoding: $0.text, as: UTF8.self) } == texts)
        #expect(contents.tornTail == 0)
    }

    // MARK: Outbox

    @Test("add, markSent and reopen keep only the pending entries, in order")
    func pendingSurvivesReopen() throws {
        let folder = try TestFolder()
        let entries = (1...5).map { sampleEntry($0) }
        do {
            let outbox = try Outbox(directory: folder.url, capacity: 100)
            #expect(try outbox.load(now: fixedNow) == nil)
            for entry in entries { try outbox.add(entry) }
            try outbox.markSent([entries[1].eventId])
            try outbox.markSent([entries[3].eventId, entries[0].eventId])
            #expect(outbox.pending == [entries[2], entries[4]])
        }
        let reopened = try Outbox(directory: folder.url, capacity: 100)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending == [entries[2], entries[4]])
        try reopened.add(sampleEntry(6))
        let third = try Outbox(directory: folder.url, capacity: 100)
        #expect(try third.load(now: fixedNow) == nil)
        #expect(third.pending.map(\.eventId) == [entries[2].eventId, entries[4].eventId, reopened.pending[2].eventId])
    }

    @Test("marking everything sent rewrites the file small")
    func allSentRewritesSmall() throws {
        let folder = try TestFolder()
        let file = folder.url.appendingPathComponent("outbox.jsonl")
        let outbox = try Outbox(directory: folder.url, capacity: 1_000)
        #expect(try outbox.load(now: fixedNow) == nil)
        let entries = (1...300).map { sampleEntry($0, recordSize: 1_000) }
        for entry in entries { try outbox.add(entry) }
        #expect(try fileSize(file) > OutboxLog.growth)
        try outbox.markSent(entries.map(\.eventId))
        #expect(outbox.pending.isEmpty)
        #expect(try content(file).isEmpty)
        #expect(try fileSize(file) == OutboxLog.growth)
        let reopened = try Outbox(directory: folder.url, capacity: 1_000)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending.isEmpty)
    }

    @Test("at its bound the outbox keeps the newest entries and a summary of the others, across a reopen")
    func bound() throws {
        let folder = try TestFolder()
        let entries = (1...8).map { sampleEntry($0) }
        do {
            let outbox = try Outbox(directory: folder.url, capacity: 5)
            #expect(try outbox.load(now: fixedNow) == nil)
            let dropped = try entries.map { try outbox.add($0) }
            #expect(dropped == [0, 0, 0, 0, 0, 1, 1, 1])
            #expect(outbox.pending == Array(entries.suffix(5)))
            #expect(outbox.dropped == DroppedSummary(
                count: 3, firstCollectedAt: entries[0].event.collectedAt, lastCollectedAt: entries[2].event.collectedAt))
        }
        let reopened = try Outbox(directory: folder.url, capacity: 5)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending == Array(entries.suffix(5)))
        #expect(reopened.dropped?.count == 3)
        #expect(reopened.dropped?.firstCollectedAt == entries[0].event.collectedAt)
        #expect(reopened.dropped?.lastCollectedAt == entries[2].event.collectedAt)
        // One more: the summary goes on from the first dropped entry.
        #expect(try reopened.add(sampleEntry(9)) == 1)
        #expect(reopened.dropped == DroppedSummary(
            count: 4, firstCollectedAt: entries[0].event.collectedAt, lastCollectedAt: entries[3].event.collectedAt))
    }

    @Test("a corrupt line in the middle: reported with its line number, the file set aside, the readable entries kept")
    func corruptLine() throws {
        let folder = try TestFolder()
        let file = folder.url.appendingPathComponent("outbox.jsonl")
        let entries = (1...3).map { sampleEntry($0) }
        do {
            let outbox = try Outbox(directory: folder.url, capacity: 100)
            _ = try outbox.load(now: fixedNow)
            for entry in entries { try outbox.add(entry) }
        }
        var lines = try content(file).split(separator: UInt8(ascii: "\n")).map { Data($0) }
        #expect(lines.count == 3)
        lines.insert(Data("this is not JSON".utf8), at: 1)
        var rewritten = Data(lines.map { $0 + Data("\n".utf8) }.joined())
        rewritten.append(Data(count: 4_096))
        try rewritten.write(to: file)

        let outbox = try Outbox(directory: folder.url, capacity: 100)
        let problem = try outbox.load(now: fixedNow)
        guard case .fileCorrupt(let path, let line, _, let aside)? = problem else {
            Issue.record("expected fileCorrupt, got \(String(describing: problem))")
            return
        }
        #expect(URL(fileURLWithPath: path).lastPathComponent == "outbox.jsonl")
        #expect(line == 2)
        #expect(URL(fileURLWithPath: aside).lastPathComponent.hasPrefix("outbox.jsonl.corrupt-"))
        #expect(FileManager.default.fileExists(atPath: aside))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.contains { $0.hasPrefix("outbox.jsonl.corrupt-") })
        #expect(try String(decoding: bytes(URL(fileURLWithPath: aside)), as: UTF8.self).contains("this is not JSON"))
        #expect(outbox.pending == entries)

        let reopened = try Outbox(directory: folder.url, capacity: 100)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending == entries)
    }

    @Test("a dead-lettered entry keeps its status and error and leaves the pending ones")
    func deadLetter() throws {
        let folder = try TestFolder()
        let entries = (1...3).map { sampleEntry($0) }
        let detail = ConsentdErrorBody.Detail(code: "invalid_field", message: "collectedAt is in the future", field: "collectedAt")
        do {
            let outbox = try Outbox(directory: folder.url, capacity: 100)
            _ = try outbox.load(now: fixedNow)
            for entry in entries { try outbox.add(entry) }
            try outbox.deadLetter(entries[1], status: 422, error: detail, at: fixedNow)
            #expect(outbox.pending == [entries[0], entries[2]])
            #expect(outbox.deadLettered == 1)
        }
        let reopened = try Outbox(directory: folder.url, capacity: 100)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending == [entries[0], entries[2]])
        #expect(reopened.deadLettered == 1)
        let letters = reopened.deadLetters()
        #expect(letters.count == 1)
        #expect(letters.first?.entry == entries[1])
        #expect(letters.first?.status == 422)
        #expect(letters.first?.error == detail)
    }

    @Test("rebind gives the installation's pending entries to the user, in order, under new event ids, across a reopen")
    func rebind() throws {
        let folder = try TestFolder()
        let installation = OutboxEntry.installation
        let entries = [sampleEntry(1), sampleEntry(2, subject: OutboxEntry.user("bob")), sampleEntry(3)]
        var renamed: [String: String] = [:]
        do {
            let outbox = try Outbox(directory: folder.url, capacity: 100)
            _ = try outbox.load(now: fixedNow)
            for entry in entries { try outbox.add(entry) }
            renamed = try outbox.rebind(from: installation, to: OutboxEntry.user("alice"))
            #expect(outbox.pending.map(\.subject) == ["user:alice", "user:bob", "user:alice"])
        }
        // consentd's idempotency is per subject: the installation's ids are not reused for alice.
        #expect(Set(renamed.keys) == [entries[0].eventId, entries[2].eventId])
        #expect(!renamed.values.contains(entries[0].eventId) && !renamed.values.contains(entries[2].eventId))
        let reopened = try Outbox(directory: folder.url, capacity: 100)
        #expect(try reopened.load(now: fixedNow) == nil)
        #expect(reopened.pending.map(\.subject) == ["user:alice", "user:bob", "user:alice"])
        #expect(reopened.pending.map(\.eventId) == [renamed[entries[0].eventId], entries[1].eventId, renamed[entries[2].eventId]])
        #expect(reopened.pending.map(\.copyOf) == [entries[0].eventId, nil, entries[2].eventId])
        #expect(reopened.pending.map(\.event.collectedAt) == entries.map(\.event.collectedAt))
        #expect(reopened.pending.map(\.userId) == ["alice", "bob", "alice"])
    }

    @Test("newestEntry is the last entry added, even with sent lines after it; nil without one")
    func newestEntry() throws {
        let folder = try TestFolder()
        #expect(Outbox.newestEntry(in: folder.url) == nil)
        #expect(Outbox.newestEntry(in: folder.url.appendingPathComponent("missing")) == nil)
        let outbox = try Outbox(directory: folder.url, capacity: 1_000)
        _ = try outbox.load(now: fixedNow)
        #expect(Outbox.newestEntry(in: folder.url) == nil)
        let entries = (1...3).map { sampleEntry($0) }
        for entry in entries { try outbox.add(entry) }
        #expect(Outbox.newestEntry(in: folder.url) == entries[2])
        try outbox.markSent([entries[0].eventId])
        try outbox.markSent([entries[2].eventId])
        #expect(outbox.pending == [entries[1]])
        #expect(Outbox.newestEntry(in: folder.url) == entries[2])
    }

    @Test("newestEntry finds the last entry of a file longer than its first window, and past 256 KiB")
    func newestEntryLongFile() throws {
        let folder = try TestFolder()
        let outbox = try Outbox(directory: folder.url, capacity: 1_000)
        _ = try outbox.load(now: fixedNow)
        var last: OutboxEntry?
        for n in 1...300 {
            let entry = sampleEntry(n, recordSize: 1_000)
            try outbox.add(entry)
            last = entry
            if n == 100 { #expect(Outbox.newestEntry(in: folder.url) == entry) }
        }
        try outbox.markSent([outbox.pending[5].eventId])
        #expect(Outbox.newestEntry(in: folder.url) == last)
    }
}
