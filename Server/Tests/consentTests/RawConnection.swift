import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to a local port written and read byte by byte, for HTTP a client library
/// would not send: half-sent heads, broken chunks, bodies cut short, a silent peer. Every read
/// has a time limit.
final class RawConnection {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether the peer closed its side.
    private(set) var peerClosed = false

    /// Connects to `127.0.0.1:port` from the local address `source` (any address of
    /// `127.0.0.0/8` is this machine's, so several clients can have addresses of their own), with
    /// a receive buffer of `receiveBuffer` bytes when given (a client that reads slowly).
    init(port: Int, from source: String? = nil, receiveBuffer: Int? = nil) throws {
        descriptor = tcpSocket()
        guard descriptor >= 0 else { throw Self.failure("socket") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                posixClose(descriptor)
                throw Self.failure("bind to \(source)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            posixClose(descriptor)
            throw Self.failure("connect to port \(port)")
        }
    }

    /// Connects to the port of a `http://host:port` URL (on `127.0.0.1`) from `source`.
    convenience init(url: String, from source: String? = nil, receiveBuffer: Int? = nil) throws {
        guard let port = URL(string: url)?.port else { throw Self.failure("no port in \(url)") }
        try self.init(port: port, from: source, receiveBuffer: receiveBuffer)
    }

    /// Sends a `GET` of `path` (with `headers` lines added) and reads its answer within 10 s.
    func get(_ path: String, headers: String = "") throws -> (status: Int, head: String, body: String)? {
        try send("GET \(path) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n")
        return readResponse(within: 10)
    }

    deinit { close() }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { posixSend(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Self.failure("send") }
            sent += count
        }
    }

    /// Reads what arrives within `seconds` or until the peer closes, whichever comes first, and
    /// returns everything read so far and not yet taken.
    @discardableResult
    func readAll(for seconds: Double) -> String {
        let end = Date().addingTimeInterval(seconds)
        while !peerClosed, fill(until: end) {}
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Waits up to `seconds` for the peer to close; true when it did (what it sent is dropped).
    func waitForClose(within seconds: Double) -> Bool {
        readAll(for: seconds)
        return peerClosed
    }

    /// Reads one response: its head and a `Content-Length` body (none for `HEAD`, `1xx`, `304`
    /// when `bodyless`). Nil when it is not complete within `seconds`.
    func readResponse(within seconds: Double, bodyless: Bool = false) -> (status: Int, head: String, body: String)? {
        let end = Date().addingTimeInterval(seconds)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            if headEnd == nil, let range = buffer.firstRange(of: separator) { headEnd = range.upperBound }
            if let headEnd {
                let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let length = bodyless || (100..<200).contains(status) || status == 304 ? 0 : Self.contentLength(head)
                if buffer.count >= headEnd + length {
                    let body = String(decoding: buffer[headEnd..<(headEnd + length)], as: UTF8.self)
                    buffer.removeFirst(headEnd + length)
                    return (status, head, body)
                }
            }
            guard !peerClosed, fill(until: end) else { return nil }
        }
    }

    /// Closes the connection.
    func close() {
        if descriptor >= 0 {
            posixClose(descriptor)
            descriptor = -1
        }
    }

    /// Reads once, waiting no later than `end`; false when nothing more can come in time.
    private func fill(until end: Date) -> Bool {
        let remaining = end.timeIntervalSinceNow
        guard remaining > 0 else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 {
            peerClosed = true
            return false
        }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    private static func failure(_ what: String) -> Error {
        CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(what) failed: errno \(errno)"])
    }
}

// The C calls whose names the class's own methods shadow.
private func posixClose(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func posixSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if os(Linux)
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(descriptor, bytes, count, 0)
    #endif
}

private func tcpSocket() -> Int32 {
    #if os(Linux)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
}
