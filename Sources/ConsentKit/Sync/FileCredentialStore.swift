import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sync credentials in a file of the sync folder, `credentials.json`: the default store off
/// iOS, tvOS, watchOS and visionOS (``SyncCredentialStore``).
///
/// The folder is private (`0700`) and, on Apple platforms, excluded from backups; the file is
/// `0600`, replaced atomically through `credentials.json.new`, which is created exclusively and
/// never through a link; a link at `credentials.json` itself is not read.
public final class FileCredentialStore: SyncCredentialStore {
    /// The sync folder.
    public let directory: URL
    private let lock = Locked(())

    /// The store in `directory` (the sync folder, ``ConsentSyncSettings/directory``).
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file: `credentials.json` in ``directory``.
    public var file: URL { directory.appendingPathComponent("credentials.json") }

    /// The value last written; nil when there is no file.
    ///
    /// - Throws: ``OutboxLogError`` when the file cannot be read (a link in its place among the causes).
    public func read() throws -> Data? {
        try lock.withLock { _ -> Data? in try readFile() }
    }

    /// Replaces the file with `credentials` (and a newline), durably.
    ///
    /// - Throws: ``OutboxLogError`` when the folder or the file cannot be written.
    public func write(_ credentials: Data) throws {
        try lock.withLock { _ in try writeFile(credentials) }
    }

    private func readFile() throws(OutboxLogError) -> Data? {
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: file.path, operation: "open", errno: errno)
        }
        defer { close(descriptor) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(data.count)) }
            guard count >= 0 else { throw .io(path: file.path, operation: "read", errno: errno) }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        while data.last == UInt8(ascii: "\n") { data.removeLast() }
        return data.isEmpty ? nil : data
    }

    private func writeFile(_ credentials: Data) throws(OutboxLogError) {
        try SyncFolder.prepare(directory)
        var bytes = credentials
        bytes.append(UInt8(ascii: "\n"))
        let descriptor = try SyncFolder.writeTemporary(beside: file, bytes)
        defer { close(descriptor) }
        try SyncFolder.commitTemporary(beside: file)
    }
}
