import Foundation

/// The default ``KeyValueStore``: `UserDefaults.standard`, or a suite the app names, which is
/// where the IAB in-app specs tell vendors to look.
///
/// A change is written under the store's lock and observers hear of it once, afterwards, in
/// every `UserDefaultsStore` of the process over the same defaults. Where the system posts
/// `UserDefaults.didChangeNotification` (Apple platforms; swift-corelibs-foundation does not),
/// changes other code makes reach the observers too.
public final class UserDefaultsStore: KeyValueStore, @unchecked Sendable {
    /// The defaults written to. `UserDefaults` is thread-safe; the domain's lock keeps a change whole.
    public let defaults: UserDefaults
    /// Shared by every store over the same domain, so a change is whole to all of them.
    private let lock: NSLock
    private let observers = Listeners<Void>()
    private let domain: String
    private let notificationTokens = Locked<[any NSObjectProtocol]>([])

    /// Posted after a store wrote a change; `object` is the domain (suite name) written.
    private static let didWrite = Notification.Name("ConsentKit.UserDefaultsStore.didWrite")
    /// Marks the thread while a store writes, so the system's per-key notifications are skipped.
    private static let writingKey = "ConsentKit.UserDefaultsStore.writing"

    /// A store over `UserDefaults.standard`.
    public convenience init() {
        self.init(defaults: .standard)
    }

    /// A store over the suite named `suiteName` (nil when the name is not usable, as
    /// `UserDefaults(suiteName:)` decides).
    public convenience init?(suiteName: String) {
        guard let defaults = UserDefaults(suiteName: suiteName) else { return nil }
        self.init(defaults: defaults, domain: suiteName)
    }

    /// A store over `defaults`. Stores over `UserDefaults.standard` or over the same suite name
    /// hear each other's changes; other `defaults` objects only their own.
    public convenience init(defaults: UserDefaults) {
        let domain = defaults === UserDefaults.standard ? Self.standardDomain : "object-\(ObjectIdentifier(defaults).hashValue)"
        self.init(defaults: defaults, domain: domain)
    }

    private init(defaults: UserDefaults, domain: String) {
        self.defaults = defaults
        self.domain = domain
        lock = Self.domainLocks.withLock { locks in
            if let lock = locks[domain] { return lock }
            let lock = NSLock()
            locks[domain] = lock
            return lock
        }
    }

    /// One lock per domain for the life of the process.
    private static let domainLocks = Locked<[String: NSLock]>([:])

    /// The keys written last in a change: a reader that waits for the consent string to change
    /// (as the specs suggest) then finds the parsed keys of the same decision.
    private static let writtenLast: Set<String> = [IABKey.tcString, IABKey.consentString]

    private static let standardDomain = "ConsentKit.standard"

    deinit {
        for token in notificationTokens.withLock({ $0 }) {
            NotificationCenter.default.removeObserver(token)
        }
    }

    public func values(forKeys keys: [String]) -> [String: StoredValue] {
        lock.lock()
        defer { lock.unlock() }
        var found: [String: StoredValue] = [:]
        for key in keys {
            if let value = defaults.object(forKey: key).flatMap(Self.storedValue) { found[key] = value }
        }
        return found
    }

    public func write(_ changes: [String: StoredValue?]) {
        lock.lock()
        Thread.current.threadDictionary[Self.writingKey] = true
        // Removals first, the consent strings last: readers outside ConsentKit, who cannot take
        // the lock, see stale keys disappear before the new string appears.
        let ordered = changes.sorted { lhs, rhs in
            func rank(_ change: (key: String, value: StoredValue?)) -> Int {
                change.value == nil ? 0 : Self.writtenLast.contains(change.key) ? 2 : 1
            }
            return (rank(lhs), lhs.key) < (rank(rhs), rhs.key)
        }
        for (key, value) in ordered {
            switch value {
            case .string(let text): defaults.set(text, forKey: key)
            case .integer(let number): defaults.set(number, forKey: key)
            case .bool(let flag): defaults.set(flag, forKey: key)
            // A key that is not there is left alone: most removals are of keys a decision never
            // wrote (restrictions of other purposes, the other generation's keys), and removing
            // one is a full write in some Foundations.
            case nil: if defaults.object(forKey: key) != nil { defaults.removeObject(forKey: key) }
            }
        }
        Thread.current.threadDictionary.removeObject(forKey: Self.writingKey)
        lock.unlock()
        NotificationCenter.default.post(name: Self.didWrite, object: domain)
    }

    public func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        startListening()
        return observers.add { _ in handler() }
    }

    private func notifyObservers() {
        observers.notify(())
    }

    /// Listens for changes written by any store over the same domain, and for the system's
    /// notifications of changes other code makes (skipped while a store is writing).
    private func startListening() {
        notificationTokens.withLock { tokens in
            guard tokens.isEmpty else { return }
            let center = NotificationCenter.default
            tokens.append(center.addObserver(forName: Self.didWrite, object: nil, queue: nil) { [weak self] note in
                guard let self, note.object as? String == self.domain else { return }
                self.notifyObservers()
            })
            tokens.append(center.addObserver(forName: UserDefaults.didChangeNotification, object: defaults, queue: nil) { [weak self] _ in
                guard let self, Thread.current.threadDictionary[Self.writingKey] == nil else { return }
                self.notifyObservers()
            })
        }
    }

    /// Maps what `UserDefaults` hands back to the spec's types; anything else is ignored.
    private static func storedValue(_ object: Any) -> StoredValue? {
        if let text = object as? String { return .string(text) }
        #if canImport(Darwin)
        if let number = object as? NSNumber {
            if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
            return .integer(number.intValue)
        }
        #else
        if let flag = object as? Bool, type(of: object) == Bool.self { return .bool(flag) }
        if let number = object as? Int { return .integer(number) }
        if let number = object as? NSNumber { return .integer(number.intValue) }
        #endif
        return nil
    }
}
