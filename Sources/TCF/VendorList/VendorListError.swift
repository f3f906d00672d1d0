/// Why a vendor list (or its translation file) could not be decoded, and where.
///
/// Every problem names the JSON path of the offending value (`vendors.165.purposes[2]`) and its
/// byte offset, line and column in the file, so a broken list can be fixed or reported upstream.
/// Nothing is guessed: a list with an error is not partly loaded.
public struct VendorListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The text is not JSON: `expected` says what the reader was looking for.
        case invalidJSON(expected: String)
        /// A value has the wrong JSON type, such as a string where the spec has an integer.
        case typeMismatch(expected: String)
        /// A required member is missing from an object.
        case missingKey(String)
        /// A value has the right type but is not allowed, such as id 0 or an unparseable date.
        case invalidValue(String)
        /// `gvlSpecificationVersion` names a format this decoder does not know.
        case unsupportedVersion(Int)
    }

    /// What is wrong.
    public let reason: Reason
    /// The path of the offending value from the document root, like `vendors.165.purposes[2]`;
    /// empty for the root itself.
    public let path: String
    /// The offending value's offset in bytes from the start of the file.
    public let offset: Int
    /// The 1-based line of ``offset``.
    public let line: Int
    /// The 1-based column, in bytes, of ``offset``.
    public let column: Int

    /// Creates an error at `offset` (line `line`, column `column`) of the value at `path`.
    public init(_ reason: Reason, path: String, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.path = path
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// One line for a person: what is wrong, at which path, and where in the file.
    public var description: String {
        let what: String
        switch reason {
        case .invalidJSON(let expected): what = "invalid JSON: expected \(expected)"
        case .typeMismatch(let expected): what = "expected \(expected)"
        case .missingKey(let key): what = "missing required key \"\(key)\""
        case .invalidValue(let message): what = message
        case .unsupportedVersion(let version):
            what = "unsupported gvlSpecificationVersion \(version) (1, 2 and 3 are known)"
        }
        let place = path.isEmpty ? "at the root" : "at \(path)"
        return "\(what) \(place) (line \(line), column \(column), byte \(offset))"
    }
}
