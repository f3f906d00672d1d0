import Foundation
import TCF
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The last good download as kept on disk: one file holding a line of JSON metadata (``Header``)
/// and then the body exactly as the server sent it.
///
/// One file, so the metadata and the list it describes are replaced together: a new copy is
/// written to a temporary file in the same folder, flushed, and renamed over the old one, so a
/// crash leaves either the old copy or the new one, never a mix or a half.
enum StoredVendorList {
    /// The file's name inside ``VendorListSource/cacheDirectory``.
    static let fileName = "vendor-list.cache"

    /// What is known about the stored body.
    struct Header: Codable, Equatable, Sendable {
        /// The layout of this file; 1.
        var format = 1
        /// Where the body came from; a copy from another URL is used but never counted as fresh.
        var url: URL
        /// The response's `ETag`, sent back as `If-None-Match`.
        var etag: String?
        /// When the server last sent or confirmed the body.
        var validatedAt: Date
        /// Seconds after ``validatedAt`` the body is fresh for (`Cache-Control: max-age`).
        var maxAge: TimeInterval
        /// The body's `gvlSpecificationVersion`.
        var gvlSpecificationVersion: Int
        /// The body's `vendorListVersion`.
        var vendorListVersion: Int
        /// The body's length in bytes, so a file cut short is named as such.
        var byteCount: Int

        /// Whether both headers describe the same download; the times say when it was checked,
        /// not what it is.
        func describesSameBody(as other: Header) -> Bool {
            url == other.url && etag == other.etag && byteCount == other.byteCount
                && gvlSpecificationVersion == other.gvlSpecificationVersion && vendorListVersion == other.vendorListVersion
        }
    }

    /// Reads and decodes the stored copy; nil when there is no file.
    ///
    /// - Throws: ``VendorListLoadingError/unreadableCache(file:reason:)`` saying what is wrong.
    static func read(from file: URL) throws(VendorListLoadingError) -> (header: Header, list: VendorList)? {
        guard let (header, body) = try readRaw(from: file) else { return nil }
        let list: VendorList
        do {
            list = try VendorList(jsonData: body)
        } catch {
            throw .unreadableCache(file: file, reason: "the stored list does not decode: \(error)")
        }
        guard list.gvlSpecificationVersion == header.gvlSpecificationVersion, list.vendorListVersion == header.vendorListVersion else {
            throw .unreadableCache(file: file, reason: "the header names \(VendorListVersion(gvlSpecificationVersion: header.gvlSpecificationVersion, vendorListVersion: header.vendorListVersion)) but the list is \(VendorListVersion(of: list))")
        }
        return (header, list)
    }

    /// Replaces the header of the stored copy when the file still holds the body `expected`
    /// describes; returns whether it did.
    static func updateHeader(of file: URL, expected: Header, to header: Header) throws(VendorListLoadingError) -> Bool {
        guard let (current, body) = try readRaw(from: file), current.describesSameBody(as: expected) else { return false }
        try write(header: header, body: body, to: file)
        return true
    }

    /// Writes `header` and `body` to `file` atomically, creating its folder if needed, and
    /// removes what earlier writes of `file` left behind (``removeAbandonedTemporaries(of:)``).
    ///
    /// - Throws: ``VendorListLoadingError/cacheWrite(file:message:)``; the old file is then untouched.
    static func write(header: Header, body: Data, to file: URL) throws(VendorListLoadingError) {
        let directory = file.deletingLastPathComponent()
        removeAbandonedTemporaries(of: file)
        // The name carries the write's start time, so a later write can tell an abandoned file
        // without reading its timestamp (a required-reason API).
        let started = Int64(Date().timeIntervalSince1970)
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(started).\(UUID().uuidString).tmp")
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var contents = try encoder.encode(header)
            contents.append(UInt8(ascii: "\n"))
            contents.append(body)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: contents)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            guard rename(temporary.path, file.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cacheWrite(file: file, message: "\(error.localizedDescription)")
        }
        synchronizeDirectory(directory)
    }

    /// How old a temporary file must be before a later write removes it: far longer than any
    /// write takes, so a write running at the same time keeps its own.
    static let abandonedTemporaryAge: TimeInterval = 600

    /// Removes the temporary files (`.NAME.SECONDS.UUID.tmp`) that writes of `file` interrupted
    /// by a crash or a kill left in its folder, once they are ``abandonedTemporaryAge`` old by
    /// the start time in their name; one whose name holds no time is removed at once.
    static func removeAbandonedTemporaries(of file: URL, now: Date = Date()) {
        let directory = file.deletingLastPathComponent()
        let prefix = ".\(file.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let started = name.dropFirst(prefix.count).split(separator: ".").first.flatMap { Double($0) }
            if let started, now.timeIntervalSince1970 - started < abandonedTemporaryAge { continue }
            try? FileManager.default.removeItem(atPath: directory.appendingPathComponent(name).path)
        }
    }

    /// The header and body of the file, checked for shape but not decoded; nil when there is no file.
    private static func readRaw(from file: URL) throws(VendorListLoadingError) -> (Header, Data)? {
        let contents: Data
        do {
            contents = try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw .unreadableCache(file: file, reason: error.localizedDescription)
        }
        guard let newline = contents.firstIndex(of: UInt8(ascii: "\n")) else {
            throw .unreadableCache(file: file, reason: "there is no header line (the file is \(contents.count) bytes)")
        }
        let header: Header
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            header = try decoder.decode(Header.self, from: contents[contents.startIndex..<newline])
        } catch {
            throw .unreadableCache(file: file, reason: "the header line does not decode: \(error)")
        }
        guard header.format == 1 else {
            throw .unreadableCache(file: file, reason: "format \(header.format) is not known (1 is)")
        }
        let body = contents[(newline + 1)...]
        guard body.count == header.byteCount else {
            throw .unreadableCache(file: file, reason: "the list is \(body.count) bytes but the header says \(header.byteCount) (cut short or edited)")
        }
        return (header, Data(body))
    }

    /// Flushes the folder's entry for the renamed file, so the rename itself survives a power cut.
    private static func synchronizeDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
