import ConsentdAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TCF
@testable import ConsentKit

/// The POSIX permission bits of the file or folder at `url`.
private func permissions(_ url: URL) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue & 0o777
}

/// consentd for one installation: config and vendor list as `FakeConsentd`, the first
/// `POST /v1/consents` (the subject-creating event) answered 201 with a subject and its
/// installation token, every later one 503 (so the events after it stay pending).
private final class CreatingConsentd: HTTPTransport {
    static let token = "ckt_installation_token_for_the_test"
    private let appends = Locked(0)

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        switch (request.method, request.url.path) {
        case (_, "/v1/config"): return TransportResponse(status: 200, body: configJSON(gdprApplies: true))
        case (_, "/v1/vendor-list/trimmed"): return .list(try GVLFixtures.v3v45())
        case ("POST", "/v1/consents"):
            guard appends.withLock({ $0 += 1; return $0 }) == 1 else { return TransportResponse(status: 503) }
            let event = try JSONDecoder().decode(ConsentEventRequest.self, from: request.body ?? Data())
            let state = SubjectState(subjectId: "sub_created", eventId: event.eventId, collectedAt: event.collectedAt,
                                     receivedAt: event.collectedAt, consent: event.consent)
            let answer = AppendResult(eventId: event.eventId, subjectId: "sub_created", outcome: .current, current: state, subjectToken: Self.token)
            return TransportResponse(status: 201, headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(answer))
        default: return TransportResponse(status: 503)
        }
    }
}

/// The sync credentials' store (issue 24, L5): the seam, and the file store off Apple platforms.
@Suite("Sync credential store")
struct CredentialStoreTests {
    @Test("l5: the file store's folder is 0700 (also one made 0755 before) and its file 0600")
    func l5FileStoreIsPrivate() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(try permissions(directory) == 0o755)
        let store = FileCredentialStore(directory: directory)
        try store.write(Data(#"{"installationToken":"ckt_1"}"#.utf8))
        #expect(try permissions(directory) == 0o700)
        #expect(try permissions(store.file) == 0o600)
    }

    @Test("l5: a link planted at credentials.json.new is removed, not followed: its target is untouched")
    func l5LinkAtTemporaryFileIsNotFollowed() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        let store = FileCredentialStore(directory: directory)
        try store.write(Data("first".utf8))
        let victim = try folder.file("victim.txt", Data("the victim's content".utf8))
        try FileManager.default.createSymbolicLink(at: store.file.appendingPathExtension("new"), withDestinationURL: victim)
        try store.write(Data("second".utf8))
        #expect(try Data(contentsOf: victim) == Data("the victim's content".utf8))
        #expect(try store.read() == Data("second".utf8))
        #expect(!FileManager.default.fileExists(atPath: store.file.appendingPathExtension("new").path))
    }

    @Test("a link in place of credentials.json is not read")
    func linkInPlaceOfTheFileIsNotRead() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let elsewhere = try folder.file("elsewhere.json", Data(#"{"installationToken":"planted"}"#.utf8))
        let store = FileCredentialStore(directory: directory)
        try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: elsewhere)
        #expect(throws: OutboxLogError.self) { try store.read() }
    }

    @Test("tokens round-trip through the file store, across a new store value; nothing kept reads nil")
    func tokensRoundTrip() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        #expect(try FileCredentialStore(directory: directory).read() == nil)
        var identity = SyncIdentity(installationId: "install-1", anonymousSubjectId: "sub_1", installationToken: "ckt_install")
        identity.userId = "user-7"
        identity.userTokens = ["user-7": "ckt_user_7", "user-8": "ckt_user_8"]
        try identity.save(to: FileCredentialStore(directory: directory))
        let (loaded, problem) = SyncIdentity.load(from: FileCredentialStore(directory: directory), directory: directory, installationId: "other")
        #expect(problem == nil)
        #expect(loaded == identity)
    }

    @Test("an earlier version's subject.jsonl is moved into the store and removed")
    func legacyFileIsMoved() throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let identity = SyncIdentity(installationId: "install-1", anonymousSubjectId: "sub_1", installationToken: "ckt_install")
        try (JSONEncoder().encode(identity) + Data("\n".utf8)).write(to: SyncIdentity.legacyFile(in: directory))
        let store = InMemoryCredentialStore()
        let (loaded, problem) = SyncIdentity.load(from: store, directory: directory, installationId: "install-1")
        #expect(problem == nil && loaded == identity)
        #expect(try JSONDecoder().decode(SyncIdentity.self, from: try #require(store.read())) == identity)
        #expect(!FileManager.default.fileExists(atPath: SyncIdentity.legacyFile(in: directory).path))
    }

    @Test("l5: an in-memory store drives the sync: the installation token goes there, no credential to the folder, the sent creating event out of the outbox")
    func l5InMemoryStoreDrivesTheSync() async throws {
        let folder = try TestFolder()
        let directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        let credentials = InMemoryCredentialStore()
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: InMemoryKeyValueStore(), transport: CreatingConsentd(), regionTimeout: 120,
            cacheDirectory: folder.cacheDirectory, log: .silent, now: { testDate },
            sync: ConsentSyncSettings(directory: directory, initialBackoff: 600, maximumBackoff: 600, credentialStore: credentials)))
        #expect(await manager.refreshed().succeeded)
        try manager.agreeToAll()
        let creating = try #require(Outbox.newestEntry(in: directory)).eventId
        try manager.disagreeToAll()
        await manager.syncNow()

        let kept = try JSONDecoder().decode(SyncIdentity.self, from: try #require(credentials.read()))
        #expect(kept.anonymousSubjectId == "sub_created" && kept.installationToken == CreatingConsentd.token)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.contains("credentials.json") && !files.contains("subject.jsonl"), "\(files)")
        for file in files {
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(file)), as: UTF8.self)
            #expect(!text.contains(CreatingConsentd.token), "\(file) holds the token")
        }
        // The creating event was sent (a credential through its replay): gone from the outbox
        // at once, while the second decision's event is still pending there.
        let outbox = String(decoding: try Data(contentsOf: directory.appendingPathComponent("outbox.jsonl")), as: UTF8.self)
        #expect(!outbox.contains(creating))
        #expect(manager.syncStatus?.pending == 1)
    }
}
