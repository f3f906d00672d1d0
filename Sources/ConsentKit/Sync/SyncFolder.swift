import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sync folder's protection, applied wherever a file of it is opened: the folder private to
/// the user (`0700`, also when an earlier version made it `0755`), left out of device backups on
/// Apple platforms (its credentials belong to this installation on this device: a backup
/// restored elsewhere must not speak for this subject), and its files replaced without
/// following links.
enum SyncFolder {
    /// Creates `folder` (and its parents) if needed, makes it `0700` and, on Apple platforms,
    /// excludes it from backups.
    static func prepare(_ folder: URL) throws(OutboxLogError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: folder.path, operation: "create the folder", errno: 0, detail: String(describing: error))
        }
        guard chmod(folder.path, 0o700) == 0 else { throw .io(path: folder.path, operation: "make the folder private (0700)", errno: errno) }
        #if canImport(Darwin)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        var url = folder
        do {
            try url.setResourceValues(values)
        } catch {
            throw .io(path: folder.path, operation: "exclude the folder from backups", errno: 0, detail: String(describing: error))
        }
        #endif
    }

    /// Writes `bytes` to `<file>.new`, made durable, and returns its open descriptor; the caller
    /// renames it over `file`. A stale `.new` (a crash, or a link someone planted) is removed
    /// first, and the new one is created exclusively and never through a link
    /// (`O_CREAT|O_EXCL|O_NOFOLLOW`, `0600`): a link planted between the two makes the write
    /// fail, never go elsewhere.
    static func writeTemporary(beside file: URL, _ bytes: Data) throws(OutboxLogError) -> Int32 {
        let temporary = file.appendingPathExtension("new")
        guard unlink(temporary.path) == 0 || errno == ENOENT else {
            throw .io(path: temporary.path, operation: "remove a stale temporary file", errno: errno)
        }
        let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: temporary.path, operation: "create", errno: errno) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            let failure = errno
            close(descriptor)
            throw .io(path: temporary.path, operation: "write", errno: failure)
        }
        return descriptor
    }

    /// Renames `<file>.new` over `file` and makes the folder durable.
    static func commitTemporary(beside file: URL) throws(OutboxLogError) {
        let temporary = file.appendingPathExtension("new")
        guard rename(temporary.path, file.path) == 0 else {
            throw .io(path: file.path, operation: "rename \(temporary.lastPathComponent) over", errno: errno)
        }
        syncFolder(of: file)
    }

    /// Makes the folder holding `file` durable (a rename in it, a file created).
    static func syncFolder(of file: URL) {
        let folder = open(file.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard folder >= 0 else { return }
        _ = fsync(folder)
        close(folder)
    }
}
