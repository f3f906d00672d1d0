import Foundation

/// What Foundation's JSON decoder lets through, or reports without saying where, found in one
/// pass over a request body before it is decoded:
///
/// - a key that appears twice in one object (the decoder keeps one of the two values silently);
///   keys are compared after unescaping, so `"a"` and `"\u0061"` are the same key;
/// - a number that is not a plain integer (`1.5`, `1e400`, or more digits than an `Int64`
///   holds), where every number consentd reads is an id (the decoder's error names no field).
///
/// Malformed JSON is left to the decoder (the scan then answers nil).
enum JSONPrescan {
    /// A problem and the path of the value at fault (`proof.method`, `vendorConsents[3]`; empty
    /// for a key `""` at the top).
    enum Problem: Equatable {
        case duplicateKey(path: String)
        case notAnInteger(path: String, text: String)
    }

    /// The first problem in `body`, nil when none; with `integersOnly` false, numbers are left
    /// to the decoder (for bodies that carry more than ids).
    static func firstProblem(in body: Data, integersOnly: Bool = true) -> Problem? {
        let bytes = [UInt8](body)
        var index = 0
        // One frame per open container: an object's keys seen and its current key, or an
        // array's current index.
        struct Frame {
            var keys: Set<String>?
            var key: String?
            var element = 0
        }
        var stack: [Frame] = []
        var expectingKey = false

        func path(last: String? = nil) -> String {
            var text = ""
            for (position, frame) in stack.enumerated() {
                if frame.keys != nil {
                    guard let key = position == stack.count - 1 ? (last ?? frame.key) : frame.key else { continue }
                    text += text.isEmpty ? key : "." + key
                } else {
                    text += "[\(frame.element)]"
                }
            }
            return text
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(Frame(keys: []))
                expectingKey = true
                index += 1
            case UInt8(ascii: "["):
                stack.append(Frame(keys: nil))
                expectingKey = false
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                expectingKey = false
                index += 1
            case UInt8(ascii: ","):
                if stack.last?.keys != nil {
                    expectingKey = true
                } else if !stack.isEmpty {
                    stack[stack.count - 1].element += 1
                }
                index += 1
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                var escaped = false
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { escaped = true; index += 1 }
                    index += 1
                }
                guard index < bytes.count else { return nil }
                index += 1
                guard expectingKey, stack.last?.keys != nil else { continue }
                expectingKey = false
                let raw = Data(bytes[start..<index])
                let key: String
                if escaped {
                    guard let decoded = try? JSONDecoder().decode(String.self, from: raw) else { return nil }
                    key = decoded
                } else {
                    key = String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                }
                if stack[stack.count - 1].keys!.contains(key) { return .duplicateKey(path: path(last: key)) }
                stack[stack.count - 1].keys!.insert(key)
                stack[stack.count - 1].key = key
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                var digits = 0
                var plain = true
                while index < bytes.count, let character = Optional(bytes[index]),
                      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) || "+-.eE".utf8.contains(character) {
                    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) { digits += 1 } else if character != UInt8(ascii: "-") || index != start { plain = false }
                    index += 1
                }
                // A number that belongs to no key is malformed JSON: the decoder's to report.
                if integersOnly, !plain || digits > 18, case let at = path(), !at.isEmpty {
                    return .notAnInteger(path: at, text: String(decoding: bytes[start..<index].prefix(40), as: UTF8.self))
                }
            default:
                index += 1
            }
        }
        return nil
    }
}
