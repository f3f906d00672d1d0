import Foundation

/// A request body read into its wire type (``ConsentdAPI``'s `Decodable` requests), with what
/// `JSONDecoder` refuses turned into a 400 that names the field.
enum RequestBody {
    /// `T` decoded from `body`, a JSON object whose keys were checked: a required field missing
    /// or a field of the wrong type is refused (400) with its path (`appConsent.subjectId`).
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(APIError) -> T {
        func path(_ keys: [any CodingKey]) -> String { keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch DecodingError.keyNotFound(let key, let context) {
            let field = path(context.codingPath + [key])
            throw APIError.badRequest("\(field) is required", field: field)
        } catch DecodingError.valueNotFound(_, let context) {
            let field = path(context.codingPath)
            throw APIError.badRequest("\(field) is required", field: field)
        } catch DecodingError.typeMismatch(let expected, let context) {
            let field = path(context.codingPath)
            let kind = expected == String.self ? "text" : expected == Bool.self ? "true or false" : "an object"
            throw APIError.badRequest("\(field) must be \(kind)", field: field)
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            let field = path(context.codingPath)
            throw APIError.badRequest("\(field): \(context.debugDescription)", field: field)
        } catch {
            throw APIError.badRequest("the body must be a JSON object")
        }
    }
}
