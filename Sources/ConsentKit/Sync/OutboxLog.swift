import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of JSON lines made durable one line at a time: the sync client's outbox and
/// dead-letter file.
///
/// The file is kept longer than its content, its tail filled with zero bytes, so that appending
/// a line overwrites space that already exists: the line is durable after one `fdatasync`,
/// without the file's size (metadata) having to be flushed as well, which on a journaling file
/// system costs several times more. The content ends at the first zero byte. A crash in the
/// middle of a write leaves a line without its newline before the zeros: it was never reported
/// as written, so reading drops it (``Contents/tornTail``) and the next append overwrites it.
///
/// Not thread-safe: its owner serialises the calls.
final class OutboxLog {
    /// Where the file is.
    let url: URL
    private var descriptor: Int32
    /// Where the content ends (the next line goes there).
    private var end: Int
    /// The file's size, content and zero tail.
    private var capacity: Int

    /// Space added when the content reaches the end of the file.
    static let growth = 256 * 1024

    /// What a read found.
    struct Contents {
        /// The complete lines, without their newline, with their 1-based line numbers.
        var lines: [(number: Int, text: Data)]
        /// Bytes after the last complete line that were not a complete line (a write the
        /// process did not live to finish); zeroed again when the log is opened.
        var tornTail: Int
    }

    /// Opens (creating it, with its folder, protected as ``SyncFolder`` says) the log at `url`
    /// and reads it; a link in the file's place is not followed.
    init(url: URL) throws(OutboxLogError) {
        self.url = url
        try SyncFolder.prepare(url.deletingLastPathComponent())
        descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: url.path, operation: "open", errno: errno) }
        end = 0
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0 else {
            let failure = errno
            close(descriptor)
            throw .io(path: url.path, operation: "seek", errno: failure)
        }
        capacity = Int(size)
    }

    deinit { close(descriptor) }

    /// Reads every complete line; zeroes a torn tail, so the next line starts clean.
    func read() throws(OutboxLogError) -> Contents {
        var data = Data(count: capacity)
        let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, capacity, 0) }
        guard count == capacity else { throw .io(path: url.path, operation: "read", errno: errno) }
        let contentEnd = data.firstIndex(of: 0) ?? data.endIndex
        var lines: [(Int, Data)] = []
        var start = 0
        var number = 1
        while start < contentEnd, let newline = data[start..<contentEnd].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append((number, data.subdata(in: start..<newline)))
            start = newline + 1
            number += 1
        }
        // Anything after the last newline is a torn write (a device may have written a later
        // block of it and not an earlier one, so it is searched to the file's end).
        let lastWritten = data[start...].lastIndex(where: { $0 != 0 })
        let torn = lastWritten.map { $0 + 1 - start } ?? 0
        end = start
        if torn > 0 {
            try overwrite(Data(count: torn), at: start)
            try sync()
        }
        return Contents(lines: lines, tornTail: torn)
    }

    /// Appends `line` (a newline is added) and makes it durable before returning.
    func append(_ line: Data) throws(OutboxLogError) {
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        if end + bytes.count >= capacity { try grow(toHold: end + bytes.count) }
        try overwrite(bytes, at: end)
        try sync()
        end += bytes.count
    }

    /// Replaces the whole file with `lines`, atomically: a new file is written and made durable
    /// beside it (``SyncFolder/writeTemporary(beside:_:)``: created exclusively, never through a
    /// link), then renamed over it, and the folder is made durable.
    /// `reserving` keeps zeroed room after the lines for appends (false for a file only ever
    /// replaced, such as the identity).
    func replace(with lines: [Data], reserving: Bool = true) throws(OutboxLogError) {
        var bytes = Data()
        for line in lines {
            bytes.append(line)
            bytes.append(UInt8(ascii: "\n"))
        }
        let contentLength = bytes.count
        let size = reserving ? Self.size(toHold: contentLength) : contentLength
        bytes.append(Data(count: size - contentLength))
        let fresh = try SyncFolder.writeTemporary(beside: url, bytes)
        do throws(OutboxLogError) {
            try SyncFolder.commitTemporary(beside: url)
        } catch {
            close(fresh)
            throw error
        }
        close(descriptor)
        descriptor = fresh
        end = contentLength
        capacity = size
    }

    /// Moves the file aside (to `<name>.corrupt-<time>`), for a person to look at, and starts an
    /// empty one; returns where the old one went.
    func setAside(at date: Date) throws(OutboxLogError) -> URL {
        let aside = url.deletingLastPathComponent()
            .appendingPathComponent("\(url.lastPathComponent).corrupt-\(Int64(date.timeIntervalSince1970 * 1000))")
        guard rename(url.path, aside.path) == 0 else { throw .io(path: url.path, operation: "set aside", errno: errno) }
        close(descriptor)
        descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: url.path, operation: "open", errno: errno) }
        SyncFolder.syncFolder(of: url)
        end = 0
        capacity = 0
        return aside
    }

    private func grow(toHold bytes: Int) throws(OutboxLogError) {
        let size = Self.size(toHold: bytes)
        try overwrite(Data(count: size - capacity), at: capacity)
        guard fsync(descriptor) == 0 else { throw .io(path: url.path, operation: "fsync", errno: errno) }
        capacity = size
    }

    private func overwrite(_ bytes: Data, at offset: Int) throws(OutboxLogError) {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw .io(path: url.path, operation: "write", errno: errno) }
    }

    /// Makes written data durable: `fdatasync` where it exists (the size did not change, so the
    /// metadata need not be flushed); `fsync` on Apple platforms.
    private func sync() throws(OutboxLogError) {
        #if canImport(Darwin)
        let status = fsync(descriptor)
        #else
        let status = fdatasync(descriptor)
        #endif
        guard status == 0 else { throw .io(path: url.path, operation: "fdatasync", errno: errno) }
    }

    private static func size(toHold bytes: Int) -> Int {
        (bytes / growth + 1) * growth
    }
}

/// A failure of the outbox's file.
public enum OutboxLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call on the file failed.
    case io(path: String, operation: String, errno: Int32, detail: String? = nil)

    /// What failed, where.
    public var description: String {
        switch self {
        case .io(let path, let operation, let code, let detail):
            "\(path): \(operation) failed" + (code != 0 ? " (\(String(cString: strerror(code))))" : "") + (detail.map { ": \($0)" } ?? "")
        }
    }
}
