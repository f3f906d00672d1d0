import ArgumentParser
import GPP

extension BenchCommand {
    /// `consent bench --gpp STRING`: decodes per second of one GPP string, every section decoded.
    struct GPPDecode: Encodable {
        let string: String
        /// The section ids of the string, in string order.
        let sections: [Int]
        let decodesPerSecond: Double
        let runs: [Double]

        /// Decodes `string` over and over for at least `seconds`, `runs` times; the median is reported.
        static func measure(_ string: String, seconds: Double, runs: Int) throws -> GPPDecode {
            let value: GPPString
            do { value = try GPPString(decoding: string) } catch {
                throw ValidationError("--gpp: \(error)")
            }
            // Each pass decodes the string 1,000 times and checks the sections each time, so the
            // decode cannot be optimised away.
            let sectionCount = value.sections.count
            let rates = (0..<runs).map { _ in
                BenchCommand.rate(atLeast: seconds) {
                    var sections = 0
                    for _ in 0..<1_000 { sections &+= (try? GPPString(decoding: string))?.sections.count ?? 0 }
                    precondition(sections == 1_000 * sectionCount, "GPP decode is not deterministic")
                    return 1_000
                }
            }
            return GPPDecode(string: string, sections: value.sectionIds, decodesPerSecond: BenchCommand.median(rates), runs: rates)
        }

        var rows: [String] {
            [
                "GPP string: sections \(sections.map(String.init).joined(separator: ", ")), \(string.utf8.count) bytes",
                BenchCommand.row("GPP decode", grouped(decodesPerSecond), "strings/s  (runs: \(runs.map { grouped($0) }.joined(separator: ", ")))"),
            ]
        }
    }
}
