/// Why a value could not be written as a consent string: a field does not fit its bits.
public struct TCFEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The spec's name of the field, like `CmpId` or `PublisherCC`.
    public let field: String
    /// What the format allows, like `0...4095` or `two letters A-Z`.
    public let allowed: String
    /// The value that does not fit, as text.
    public let value: String

    /// An error for `field` holding `value` where the format allows `allowed`.
    public init(field: String, allowed: String, value: String) {
        self.field = field
        self.allowed = allowed
        self.value = value
    }

    /// One line for a person, like `CmpId is 5000; the format allows 0...4095`.
    public var description: String { "\(field) is \(value); the format allows \(allowed)" }
}

/// Range checks shared by the encoders.
package enum FieldCheck {
    /// Throws unless `value` fits in `width` unsigned bits.
    package static func fits(_ value: Int, _ width: Int, _ field: String) throws(TCFEncodingError) {
        guard value >= 0, value < 1 << width else {
            throw TCFEncodingError(field: field, allowed: "0...\((1 << width) - 1)", value: "\(value)")
        }
    }

    /// Throws unless `value` fits in 36 bits of deciseconds.
    package static func fits(_ value: TCFTimestamp, _ field: String) throws(TCFEncodingError) {
        guard value.deciseconds >= 0, value.deciseconds < 1 << 36 else {
            throw TCFEncodingError(field: field, allowed: "1970-01-01 to 2187-09-19 (36-bit deciseconds)", value: "\(value.deciseconds)")
        }
    }

    /// Throws unless `code` is two upper-case letters A-Z.
    package static func letters(_ code: String, _ field: String) throws(TCFEncodingError) {
        let bytes = Array(code.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (65...90).contains($0) }) else {
            throw TCFEncodingError(field: field, allowed: "two upper-case letters A-Z", value: "\"\(code)\"")
        }
    }

    /// Throws unless every id of `set` is at most `max`.
    package static func ids(_ set: IDSet, max: Int, _ field: String) throws(TCFEncodingError) {
        guard set.max <= max else {
            throw TCFEncodingError(field: field, allowed: "ids 1...\(max)", value: "id \(set.max)")
        }
    }
}
