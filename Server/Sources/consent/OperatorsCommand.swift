import ArgumentParser
import ConsentServer
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `consent operators`: create, list and disable the console's operators.
struct OperatorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operators",
        abstract: "Manage the operators who sign in to consentd's console (roles: owner, editor, analyst, support).",
        subcommands: [Create.self, List.self, Disable.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an operator: the password is read from standard input (prompted on a terminal), or a one-time link is made.")

        @Option(help: "The e-mail the operator signs in with (unique, in any case).")
        var email: String

        @Option(help: "owner, editor, analyst or support.")
        var role: String

        @Flag(help: "Make a one-time token (1 hour, single use) with which the operator sets its password, instead of reading one.")
        var oneTimeLink = false

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let role: OperatorRole
            do { role = try OperatorRole.named(self.role) } catch { throw ValidationError(error.description) }
            if oneTimeLink {
                let created = try await options.withDatabase { database in
                    try await Operators(database: database).createWithLink(email: email, role: role)
                }
                Output.line(created.token)
                Output.error("created \(role.rawValue) \(created.account.email) (\(created.account.operatorId)) without a password; "
                             + "it signs in once within 1 hour with this one-time token and sets one (docs/console.md); it is not shown again")
                return
            }
            let password = try Self.readPassword()
            do {
                try PasswordHash.check(password)
            } catch {
                throw ValidationError(error.description)
            }
            let created = try await options.withDatabase { database in
                try await Operators(database: database).create(email: email, role: role, password: password)
            }
            Output.line("created \(created.role.rawValue) \(created.email) (\(created.operatorId))")
        }

        /// The password: prompted without echo on a terminal, else the first line of standard input.
        static func readPassword() throws -> String {
            if isatty(STDIN_FILENO) != 0, let typed = getpass("Password (at least \(PasswordHash.minimumLength) characters): ") {
                return String(cString: typed)
            }
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("no password: give it on standard input, or use --one-time-link")
            }
            return line
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List operators (never their passwords).")

        @Flag(help: "One JSON object per line.")
        var json = false

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let operators = try await options.withDatabase { database in try await Operators(database: database).list() }
            for entry in operators {
                if json {
                    Output.line(try Output.json(entry))
                } else {
                    let state = entry.disabledAt.map { "disabled \($0)" } ?? (entry.hasPassword ? "active" : "awaiting its one-time link")
                    Output.line("\(entry.operatorId)  \(entry.email)  \(entry.role.rawValue)  \(state)  created \(entry.createdAt)")
                }
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an operator by e-mail or id and end its sessions.")

        @Argument(help: "The operator's e-mail or id (`consent operators list`).")
        var operatorName: String

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let found = try await options.withDatabase { database in try await Operators(database: database).disable(operatorName) }
            guard found else {
                Output.error("no operator \(operatorName)")
                throw ExitCode.failure
            }
            Output.line("disabled \(operatorName)")
        }
    }
}
