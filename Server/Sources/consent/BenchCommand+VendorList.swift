import ArgumentParser
import Foundation
import TCF

/// `consent bench --vendor-list FILE`: how long loading a Global Vendor List into the model takes.
extension BenchCommand {
    /// What loading one vendor list file measured, next to Foundation's untyped JSON parse of
    /// the same bytes (`JSONSerialization.jsonObject`), the work any JSON-based loader starts with.
    struct VendorListLoad: Encodable {
        let file: String
        let bytes: Int
        /// Loads timed per side (each timing is one whole load from the file's bytes in memory).
        let loads: Int
        let medianMilliseconds: Double
        let bestMilliseconds: Double
        let peer: String
        let peerMedianMilliseconds: Double
        let peerBestMilliseconds: Double

        var rows: [String] {
            func ms(_ value: Double) -> String { String(format: "%.2f", value) }
            return [
                "vendor list \(file): \(bytes) bytes, \(loads) loads per side",
                BenchCommand.row("  VendorList(jsonData:)", ms(medianMilliseconds), "ms median, best \(ms(bestMilliseconds)) ms"),
                BenchCommand.row("  \(peer)", ms(peerMedianMilliseconds), "ms median, best \(ms(peerBestMilliseconds)) ms (untyped parse only)"),
            ]
        }
    }

    /// Times `VendorList(jsonData:)` and `JSONSerialization` over the file at `path`, each for at
    /// least `seconds` and at least `minimumLoads` loads.
    static func measureVendorList(at path: String, seconds: Double, minimumLoads: Int = 30) throws -> VendorListLoad {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read \(path): \(error.localizedDescription)")
        }
        // The untimed first load proves the file is a vendor list and fixes the vendor count
        // every timed load must reproduce, which keeps the optimiser from dropping the work.
        let vendors: Int
        do {
            vendors = try VendorList(jsonData: data).vendors.count
        } catch {
            throw ValidationError("\(path) is not a vendor list: \(error)")
        }
        let ours = timings(atLeast: seconds, minimumCount: minimumLoads) {
            let count = (try? VendorList(jsonData: data))?.vendors.count
            precondition(count == vendors, "VendorList(jsonData:) is not deterministic")
        }
        let peer = timings(atLeast: seconds, minimumCount: minimumLoads) {
            let object = try? JSONSerialization.jsonObject(with: data)
            precondition(object is [String: Any], "JSONSerialization no longer parses \(path)")
        }
        return VendorListLoad(
            file: path,
            bytes: data.count,
            loads: min(ours.count, peer.count),
            medianMilliseconds: median(ours),
            bestMilliseconds: ours.min() ?? 0,
            peer: "JSONSerialization.jsonObject",
            peerMedianMilliseconds: median(peer),
            peerBestMilliseconds: peer.min() ?? 0
        )
    }

    /// Runs `body` repeatedly, at least `minimumCount` times and for at least `seconds`, and
    /// returns the duration of each run in milliseconds.
    static func timings(atLeast seconds: Double, minimumCount: Int, _ body: () -> Void) -> [Double] {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        var result: [Double] = []
        while result.count < minimumCount || clock.now < deadline {
            let elapsed = clock.measure(body)
            let components = elapsed.components
            result.append(Double(components.seconds) * 1e3 + Double(components.attoseconds) * 1e-15)
        }
        return result
    }
}
