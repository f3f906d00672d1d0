import Foundation

/// What an operator of the console may do (decision 0038, ``ConsoleAccess``).
public enum OperatorRole: String, Codable, Sendable, CaseIterable {
    /// The role named `text`, or ``ConsoleError/badRole(_:)``.
    public static func named(_ text: String) throws(ConsoleError) -> OperatorRole {
        guard let role = OperatorRole(rawValue: text) else { throw .badRole(text) }
        return role
    }

    /// Everything, operators and the audit log included.
    case owner
    /// The configuration: apps, keys, websites, the notice.
    case editor
    /// The consent analytics, read-only.
    case analyst
    /// Data-subject requests: lookup, export, erasure.
    case support
}

/// A person who signs in to the console, as stored (never the password's hash).
public struct ConsoleOperator: Codable, Sendable, Equatable {
    /// The operator's id (`op_` and 12 characters).
    public var operatorId: String
    /// The e-mail it signs in with, as written when created (unique regardless of case).
    public var email: String
    /// What it may do.
    public var role: OperatorRole
    /// When it was created (ISO 8601).
    public var createdAt: String
    /// When it was disabled, if it was.
    public var disabledAt: String?
    /// Whether it has a password yet (false until a one-time link made for it is used).
    public var hasPassword: Bool
}

/// A console operation refused, with what to do.
public enum ConsoleError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The e-mail is not an address (`name@domain`, 3 to 254 bytes, no spaces).
    case badEmail(String)
    /// Another operator has this e-mail (in any case).
    case emailTaken(String)
    /// The password is too short or too long.
    case weakPassword(String)
    /// The role is none of owner, editor, analyst, support.
    case badRole(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .badEmail(let email): "\"\(email)\" is not an e-mail address (name@domain, 3 to 254 bytes, no spaces)"
        case .emailTaken(let email): "an operator with the e-mail \(email) exists already"
        case .weakPassword(let reason): reason
        case .badRole(let role): "\"\(role)\" is not a role: use owner, editor, analyst or support"
        }
    }

    /// The refusal the API sends.
    var apiError: APIError {
        switch self {
        case .badEmail: APIError(.badRequest, "invalid_field", description, field: "email")
        case .emailTaken: APIError(.conflict, "email_taken", description, field: "email")
        case .weakPassword: APIError(.badRequest, "weak_password", description, field: "password")
        case .badRole: APIError(.badRequest, "invalid_field", description, field: "role")
        }
    }
}

/// E-mail addresses as operators' names.
enum OperatorEmail {
    /// The key the e-mail is unique under: lower-cased.
    static func key(_ email: String) -> String {
        email.lowercased()
    }

    /// Refuses what is not `name@domain` of 3 to 254 bytes without spaces or control characters.
    static func check(_ email: String) throws(ConsoleError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard (3...254).contains(email.utf8.count), parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { throw .badEmail(email) }
    }
}
