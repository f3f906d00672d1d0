import Foundation
import Yams

/// `Server/openapi.yaml`, read for tests: which operations it declares, and whether a response
/// (status, content type, JSON body) is one it documents for an operation.
///
/// The body check follows the schema's `$ref`, `type` (including `null`), `required`,
/// `properties`, `items`, `enum`, `oneOf`/`anyOf` and `additionalProperties: false`; formats and
/// patterns are left to schemathesis.
struct OpenAPIContract {
    let document: [String: Any]

    /// Read anew each time (the document holds non-Sendable values).
    static var shared: OpenAPIContract {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let text = try! String(contentsOf: url, encoding: .utf8)
        return OpenAPIContract(document: try! Yams.load(yaml: text) as! [String: Any])
    }

    /// `METHOD /path/{param}` for every operation.
    var operations: Set<String> {
        var result: Set<String> = []
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            for method in (item as? [String: Any] ?? [:]).keys
            where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                result.insert("\(method.uppercased()) \(path)")
            }
        }
        return result
    }

    /// What is wrong with a response for `METHOD template`; empty when the contract holds.
    func problems(method: String, template: String, status: Int, contentType: String?, body: Data) -> [String] {
        let here = "\(method) \(template) → \(status)"
        guard let operation = ((document["paths"] as? [String: Any])?[template] as? [String: Any])?[method.lowercased()] as? [String: Any] else {
            return ["\(here): no such operation in openapi.yaml"]
        }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        guard var response = (responses[String(status)] ?? responses["default"]) as? [String: Any] else {
            return ["\(here): status not documented (documented: \(responses.keys.sorted().joined(separator: ", ")))"]
        }
        response = resolve(response)
        guard let content = response["content"] as? [String: Any] else {
            return body.isEmpty ? [] : ["\(here): documented without a body, but one was sent"]
        }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let media = content[mediaType] as? [String: Any] else {
            return ["\(here): content type \(mediaType) not documented (documented: \(content.keys.sorted().joined(separator: ", ")))"]
        }
        guard mediaType == "application/json", let schema = media["schema"] as? [String: Any] else { return [] }
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return ["\(here): body is not JSON"]
        }
        return validate(json, against: schema, at: "body").map { "\(here): \($0)" }
    }

    /// The statuses documented for `METHOD template` (`default` left out).
    func statuses(method: String, template: String) -> [String] {
        let operation = ((document["paths"] as? [String: Any])?[template] as? [String: Any])?[method.lowercased()] as? [String: Any]
        return (operation?["responses"] as? [String: Any] ?? [:]).keys.filter { $0 != "default" }.sorted()
    }

    /// The schema `#/components/schemas/NAME`.
    func schema(_ name: String) -> [String: Any] {
        resolve(["$ref": "#/components/schemas/\(name)"])
    }

    /// What is wrong with a JSON document as an instance of the schema `NAME`.
    func problems(json: Data, schema name: String) -> [String] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: json) else { return ["\(name): not JSON"] }
        return validate(value, against: schema(name), at: name)
    }

    /// The `enum` of the property `property` of schema `NAME`, following `$ref`.
    func enumValues(schema name: String, property: String) -> [String] {
        let properties = schema(name)["properties"] as? [String: Any] ?? [:]
        return (resolve(properties[property] as? [String: Any] ?? [:])["enum"] as? [Any] ?? []).map { "\($0)" }
    }

    /// The `enum` of the parameter `#/components/parameters/NAME`.
    func enumValues(parameter name: String) -> [String] {
        let parameter = resolve(["$ref": "#/components/parameters/\(name)"])
        return ((parameter["schema"] as? [String: Any])?["enum"] as? [Any] ?? []).map { "\($0)" }
    }

    /// Where the objects of a JSON document and the schema `NAME` disagree on property names,
    /// at every level the schema declares properties for. With `requiredOnly`, the schema's
    /// `required` lists stand for its properties: a document holding only what is always
    /// written must hold exactly those.
    func propertyDifferences(json: Data, schema name: String, requiredOnly: Bool = false) -> [String] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: json) else { return ["\(name): not JSON"] }
        return propertyDifferences(value, schema: schema(name), at: name, requiredOnly: requiredOnly)
    }

    private func propertyDifferences(_ value: JSONValue, schema rawSchema: [String: Any], at path: String, requiredOnly: Bool) -> [String] {
        let schema = resolve(rawSchema)
        switch value {
        case .object(let object):
            guard let properties = schema["properties"] as? [String: Any] else { return [] }
            let declared = requiredOnly ? Set(schema["required"] as? [String] ?? []) : Set(properties.keys)
            let written = Set(object.keys)
            var differences = declared.subtracting(written).sorted().map { "\(path).\($0) is \(requiredOnly ? "required" : "declared") but not written" }
            differences += written.subtracting(declared).sorted().map { "\(path).\($0) is written but not \(requiredOnly ? "required" : "declared")" }
            for (key, child) in object {
                if let childSchema = properties[key] as? [String: Any] {
                    differences += propertyDifferences(child, schema: childSchema, at: "\(path).\(key)", requiredOnly: requiredOnly)
                }
            }
            return differences
        case .array(let array):
            guard let items = schema["items"] as? [String: Any] else { return [] }
            return array.enumerated().flatMap { propertyDifferences($1, schema: items, at: "\(path)[\($0)]", requiredOnly: requiredOnly) }
        default:
            return []
        }
    }

    private func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let ref = node["$ref"] as? String, ref.hasPrefix("#/") else { return node }
        var current: Any = document
        for part in ref.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)] ?? [:]
        }
        return resolve(current as? [String: Any] ?? [:])
    }

    private func validate(_ value: JSONValue, against rawSchema: [String: Any], at path: String) -> [String] {
        let schema = resolve(rawSchema)
        for key in ["oneOf", "anyOf"] {
            if let options = schema[key] as? [[String: Any]] {
                let passing = options.filter { validate(value, against: $0, at: path).isEmpty }
                if passing.isEmpty { return ["\(path) matches none of its \(key) schemas"] }
            }
        }
        if let allOf = schema["allOf"] as? [[String: Any]] {
            let problems = allOf.flatMap { validate(value, against: $0, at: path) }
            if !problems.isEmpty { return problems }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == value.text }) {
            return ["\(path) is \(value.text), not one of \(options)"]
        }
        let types: [String] = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        if !types.isEmpty, !types.contains(where: { value.matches($0) }) {
            return ["\(path) is \(value.text), expected \(types.joined(separator: " or "))"]
        }
        var problems: [String] = []
        if case .object(let object) = value {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path).\(key) is required but missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, child) in object {
                if let childSchema = properties[key] as? [String: Any] {
                    problems += validate(child, against: childSchema, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path).\(key) is not in the schema")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                problems += validate(element, against: items, at: "\(path)[\(index)]")
            }
        }
        return problems
    }
}

/// JSON as it was written, with booleans and numbers kept apart.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func matches(_ type: String) -> Bool {
        switch (type, self) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): true
        case ("integer", .number(let value)): value.rounded() == value
        default: false
        }
    }

    /// The value as enum comparisons see it.
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value.rounded() == value ? String(Int(value)) : "\(value)"
        case .string(let value): value
        case .array: "[…]"
        case .object: "{…}"
        }
    }
}
