import Foundation

/// A JSON object body read as strictly as `POST /v1/consents` reads its own: a key twice in any
/// object, or a key outside those the route defines (at the top, and in the nested objects it
/// names), is refused with its path, before anything is decoded. For the bodies of the web CMP's
/// routes and the demo, which are read in several steps.
public enum StrictJSONObject {
    /// Checks `body`: a JSON object without repeated keys, whose keys are among `known` and, for
    /// each key of `nested` whose value is an object, that object's among `nested[key]`.
    public static func check(_ body: Data, known: Set<String>, nested: [String: Set<String>] = [:]) throws(InvalidField) {
        if case .duplicateKey(let path) = JSONPrescan.firstProblem(in: body, integersOnly: false) {
            throw InvalidField(code: .invalidField, field: path,
                               message: "\(path.isEmpty ? "the key \"\"" : path) appears more than once in its object")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw InvalidField(code: .invalidJSON, field: nil, message: "the body must be a JSON object")
        }
        try refuseUnknown(object.keys, known: known, prefix: "")
        for (name, fields) in nested.sorted(by: { $0.key < $1.key }) {
            if let inner = object[name] as? [String: Any] { try refuseUnknown(inner.keys, known: fields, prefix: name + ".") }
        }
    }

    private static func refuseUnknown(_ keys: Dictionary<String, Any>.Keys, known: Set<String>, prefix: String) throws(InvalidField) {
        if let unknown = keys.filter({ !known.contains($0) }).sorted().first {
            throw InvalidField(code: .invalidField, field: prefix + unknown,
                               message: "\(unknown.isEmpty ? "the key \"\"" : prefix + unknown) is not a field of this object "
                               + "(expected: \(known.sorted().joined(separator: ", ")))")
        }
    }
}
