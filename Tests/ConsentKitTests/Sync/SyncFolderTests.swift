import Foundation
import Testing
@testable import ConsentKit

/// The sync folder's files, as every file of it is opened (issue 24, L5): the outbox, the
/// dead-letter file and the credentials share the folder and its rules.
@Suite("Sync folder protection")
struct SyncFolderTests {
    /// The POSIX permission bits of the file or folder at `url`.
    static func permissions(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test("l5: opening a file of the sync folder makes the folder 0700, also one an earlier version made 0755; the file is 0600")
    func l5SyncFolderIsPrivate() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let log = try OutboxLog(url: directory.appendingPathComponent("outbox.jsonl"))
        try log.replace(with: [Data("{}".utf8)])
        #expect(try Self.permissions(directory) == 0o700)
        #expect(try Self.permissions(log.url) == 0o600)
    }

    @Test("l5: a link planted at <file>.new is not written through when the file is replaced")
    func l5ReplaceDoesNotFollowALinkAtTheTemporaryFile() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        let log = try OutboxLog(url: directory.appendingPathComponent("outbox.jsonl"))
        let victim = try folder.file("victim.txt", Data("the victim's content".utf8))
        try FileManager.default.createSymbolicLink(at: log.url.appendingPathExtension("new"), withDestinationURL: victim)
        try log.replace(with: [Data(#"{"sent":["a"]}"#.utf8)])
        #expect(try Data(contentsOf: victim) == Data("the victim's content".utf8))
        #expect(try log.read().lines.map(\.text) == [Data(#"{"sent":["a"]}"#.utf8)])
    }
}
