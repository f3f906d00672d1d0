import Foundation
import HTTPTypes

/// A request's `Accept-Encoding`, read as RFC 9110 §12.5.3 says: each listed coding with its
/// `q` weight (1 when not given), `*` for codings not listed, and `identity` acceptable unless
/// refused by `identity;q=0`, or by `*;q=0` without an `identity` entry. A weight of 0 means "not
/// acceptable". An element whose weight is not a valid qvalue is ignored.
struct AcceptEncoding: Equatable {
    /// The weight of each listed coding, lower-cased; `x-gzip` counts as `gzip`.
    private var weights: [String: Double] = [:]
    /// Whether the request had the header at all.
    let isPresent: Bool

    /// Reads every `Accept-Encoding` field of `headers`.
    init(_ headers: HTTPFields) {
        let values = headers[values: .acceptEncoding]
        isPresent = !values.isEmpty
        for element in values.flatMap({ $0.split(separator: ",") }) {
            let parts = element.split(separator: ";")
            guard var coding = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !coding.isEmpty else { continue }
            if coding == "x-gzip" { coding = "gzip" }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let q = Self.qvalue(pair[1]) else { weight = .nan; break }
                weight = q
            }
            if !weight.isNaN { weights[coding] = weight }
        }
    }

    /// The weight the request gives `coding` (lower-case).
    func weight(of coding: String) -> Double {
        if let weight = weights[coding] { return weight }
        if coding == "identity" { return weights["*"] == 0 ? 0 : 1 }
        // Without the header the server answers unencoded; a present header lists what it takes.
        return isPresent ? (weights["*"] ?? 0) : 0
    }

    /// The coding to answer in when `gzip` and `identity` are on offer: `gzip` when it is
    /// acceptable and weighs at least as much as `identity`, else `identity` when acceptable, else
    /// nil (nothing on offer is acceptable: 406).
    func choice() -> String? {
        let gzip = weight(of: "gzip"), identity = weight(of: "identity")
        if gzip > 0, gzip >= identity { return "gzip" }
        return identity > 0 ? "identity" : nil
    }

    /// `0`, `0.5`, `1.000`: at most three decimals, 0 to 1.
    private static func qvalue(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            if whole == "1", !fraction.allSatisfy({ $0 == "0" }) { return nil }
        }
        return Double(text)
    }
}
