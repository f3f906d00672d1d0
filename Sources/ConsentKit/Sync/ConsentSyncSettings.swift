import ConsentdAPI
import Foundation

/// How the manager keeps consentd's consent database in step with the device: on by default
/// whenever ``ConsentConfiguration/consentd`` is set, with nothing else to configure.
///
/// Every decision the manager commits becomes a consent event with its proof, written first to
/// an outbox file in ``directory`` and sent from there in the background, in order; the
/// subject's state on consentd is read back and merged by last-writer-wins
/// (``ConsentManager/syncNow()``, docs/sync.md).
public struct ConsentSyncSettings: Sendable {
    /// Whether decisions are sent to consentd and the subject's state merged back.
    public var isEnabled: Bool
    /// The folder of the outbox and the dead-letter file (and of the credentials where they are
    /// kept in a file): the app's Application Support folder (`$XDG_DATA_HOME`, else
    /// `~/.local/share`, off Apple platforms) under `ConsentKit/Sync` by default. It belongs to
    /// this installation: deleting the app deletes it, as it does the installation id. It is
    /// made private (`0700`) and, on Apple platforms, excluded from backups.
    public var directory: URL
    /// Where the subject credentials are kept (the installation token, users' tokens); nil
    /// (the default) for the platform's: the Keychain on iOS, tvOS, watchOS and visionOS
    /// (`KeychainCredentialStore`), a private file in ``directory`` elsewhere
    /// (``FileCredentialStore``).
    public var credentialStore: (any SyncCredentialStore)?
    /// The most events the outbox holds (1,000 by default); past it the oldest are replaced by
    /// a summary (how many, from when to when) and the loss is reported.
    public var capacity: Int
    /// The events sent in one request to `POST /v1/consents/batch` (at most 100).
    public var batchSize: Int
    /// The publisher's name for the notice, written into every event's proof (`noticeId`).
    public var noticeId: String

    /// The proof's `noticeId` of a refusal recorded after an ATT denial (method
    /// `trackingDenied`): what the user answered was the system's tracking prompt, not a notice.
    public static let trackingPromptNoticeId = "app-tracking-transparency-prompt"
    /// The platform written into every event's proof: `ios` on iOS, `other` elsewhere.
    public var platform: ConsentProof.Platform
    /// The first wait after a failed attempt, in seconds; each further failure doubles it (with
    /// jitter) up to ``maximumBackoff``.
    public var initialBackoff: TimeInterval
    /// The longest wait between attempts, in seconds.
    public var maximumBackoff: TimeInterval
    /// Seconds each request to consentd may take.
    public var requestTimeout: TimeInterval
    /// The longest ``ConsentManager/refreshed()`` waits, for a signed-in user, for the first
    /// merge with their subject (1.5 s by default; 0 does not wait): a user who decided on
    /// another device, or before a reinstall, is then not asked again.
    public var firstMergeTimeout: TimeInterval

    /// Settings; every value has the default described on its property.
    public init(
        isEnabled: Bool = true, directory: URL = ConsentSyncSettings.defaultDirectory, capacity: Int = 1_000,
        batchSize: Int = ConsentBatchRequest.maximumCount, noticeId: String = "consentkit-notice",
        platform: ConsentProof.Platform = ConsentSyncSettings.currentPlatform, initialBackoff: TimeInterval = 2,
        maximumBackoff: TimeInterval = 600, requestTimeout: TimeInterval = 15, credentialStore: (any SyncCredentialStore)? = nil,
        firstMergeTimeout: TimeInterval = 1.5
    ) {
        self.isEnabled = isEnabled
        self.directory = directory
        self.credentialStore = credentialStore
        self.capacity = max(1, capacity)
        self.batchSize = min(max(1, batchSize), ConsentBatchRequest.maximumCount)
        self.noticeId = noticeId
        self.platform = platform
        self.initialBackoff = max(0.01, initialBackoff)
        self.maximumBackoff = max(self.initialBackoff, maximumBackoff)
        self.requestTimeout = requestTimeout
        self.firstMergeTimeout = max(0, firstMergeTimeout)
    }

    /// Settings that send nothing.
    public static let disabled = ConsentSyncSettings(isEnabled: false)

    /// `Application Support/ConsentKit/Sync` on Apple platforms; `$XDG_DATA_HOME/ConsentKit/Sync`
    /// (`~/.local/share` when unset) elsewhere.
    public static var defaultDirectory: URL {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        #else
        let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
        let base = xdg ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        #endif
        return base.appendingPathComponent("ConsentKit/Sync", isDirectory: true)
    }

    /// The platform this build runs on, as the proof names it.
    public static var currentPlatform: ConsentProof.Platform {
        #if os(iOS)
        .ios
        #else
        .other
        #endif
    }
}
