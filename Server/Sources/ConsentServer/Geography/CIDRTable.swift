import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A table of IPv4 and IPv6 networks and their countries (or US states); the longest matching
/// prefix wins.
///
/// The file form is one `network/prefix,PLACE` per line, where the place is a country
/// (`192.0.2.0/24,DE`) or a US state or DC by its ISO 3166-2 code (`198.51.100.0/25,US-CA`);
/// `#` starts a comment.
public struct CIDRTable: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var network: [UInt8]
        var prefixLength: Int
        var place: RegionResolver.Place
    }

    private var entries: [Entry] = []

    /// An empty table.
    public init() {}

    /// Reads a table file; errors name the file and line.
    public static func load(path: String) throws(ConfigurationError) -> CIDRTable {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, line: nil, field: nil, message: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(text, file: path)
    }

    /// Parses table text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> CIDRTable {
        var table = CIDRTable()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            func fail(_ message: String) -> ConfigurationError {
                ConfigurationError(file: file, line: index + 1, field: nil, message: message)
            }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { throw fail("expected network/prefix,COUNTRY, such as 192.0.2.0/24,DE or 198.51.100.0/25,US-CA") }
            guard let place = RegionResolver.place(fields[1]), fields[1].contains("-") == (place.subdivision != nil) else {
                throw fail("\(fields[1]) is not a two-letter country code, nor US- and a US state's or DC's code (such as US-CA)")
            }
            let parts = fields[0].split(separator: "/")
            guard parts.count == 2, let bytes = Self.addressBytes(String(parts[0])), let prefix = Int(parts[1]),
                  (0...(bytes.count * 8)).contains(prefix)
            else { throw fail("\(fields[0]) is not a network in CIDR notation") }
            table.entries.append(Entry(network: Self.masked(bytes, prefix), prefixLength: prefix, place: place))
        }
        table.entries.sort { $0.prefixLength > $1.prefixLength }
        return table
    }

    /// The country (and US state) of the longest prefix that holds `address`, nil when none does.
    func place(for address: String) -> RegionResolver.Place? {
        guard var bytes = Self.addressBytes(address) else { return nil }
        // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) matches IPv4 networks.
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        for entry in entries where entry.network.count == bytes.count {
            if Self.masked(bytes, entry.prefixLength) == entry.network { return entry.place }
        }
        return nil
    }

    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = max(0, min(8, prefix - index * 8))
            return bits == 8 ? byte : byte & ~(UInt8(0xFF) >> bits)
        }
    }
}
