import ConsentKitFormats
import TCF

/// A JSON value whose objects keep their keys in the order they were put: what the GPP JSON
/// form is built as, then encoded (``Encodable``) or written (``write(to:)``).
enum JSONValue: Encodable {
    case integer(Int)
    case boolean(Bool)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .boolean(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in zip(object.keys, object.values) { try container.encode(value, forKey: JSONKey(key)) }
        }
    }

    /// Writes the value as compact JSON text, object keys in order.
    func write(to writer: inout JSONWriter) {
        switch self {
        case .integer(let value): writer.integer(value)
        case .boolean(let value): writer.raw(value ? "true" : "false")
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.beginArray()
            for value in values { value.write(to: &writer) }
            writer.endArray()
        case .object(let object):
            writer.beginObject()
            for (key, value) in zip(object.keys, object.values) {
                writer.key(key)
                value.write(to: &writer)
            }
            writer.endObject()
        }
    }
}

/// An object being built, its keys in the order they are put.
struct JSONObject {
    private(set) var keys: [String] = []
    private(set) var values: [JSONValue] = []

    mutating func put(_ name: String, _ value: some JSONConvertible) { put(name, json: value.jsonValue) }

    mutating func put(_ name: String, json value: JSONValue) {
        keys.append(name)
        values.append(value)
    }
}

/// A value with a JSON form.
protocol JSONConvertible {
    var jsonValue: JSONValue { get }
}

extension Int: JSONConvertible {
    var jsonValue: JSONValue { .integer(self) }
}

extension Bool: JSONConvertible {
    var jsonValue: JSONValue { .boolean(self) }
}

extension String: JSONConvertible {
    var jsonValue: JSONValue { .string(self) }
}

extension IDSet: JSONConvertible {
    /// The ids, sorted.
    var jsonValue: JSONValue { .array(map { .integer($0) }) }
}

extension TCFTimestamp: JSONConvertible {
    /// ISO 8601 UTC with milliseconds.
    var jsonValue: JSONValue { .string(iso8601) }
}

extension Array: JSONConvertible where Element: JSONConvertible {
    var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
