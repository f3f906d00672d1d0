import Foundation
#if canImport(os)
import os
#endif

/// Where the SDK writes what a developer should read: warnings such as the development CMP id,
/// and failures it carried on from. The default, ``system``, writes to the unified log on Apple
/// platforms (subsystem `ConsentKit`) and to standard error elsewhere; give a closure to send
/// them to the app's own logger.
public struct ConsentLog: Sendable {
    /// How much a message matters.
    public enum Level: String, Sendable, Equatable, Comparable {
        /// Detail for debugging.
        case debug
        /// Something worth knowing.
        case info
        /// Something the developer should change before shipping.
        case warning
        /// Something failed; the SDK carried on with what it had.
        case error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warning: 2
            case .error: 3
            }
        }

        /// Orders levels by importance, `debug` first.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    private let write: @Sendable (Level, String) -> Void

    /// A log that hands each message to `write`.
    public init(_ write: @escaping @Sendable (Level, String) -> Void) {
        self.write = write
    }

    /// Logs `message` at `level`.
    public func callAsFunction(_ level: Level, _ message: String) {
        write(level, message)
    }

    /// Writes nothing.
    public static let silent = ConsentLog { _, _ in }

    /// The unified log on Apple platforms, standard error elsewhere; debug messages are dropped.
    public static let system = ConsentLog { level, message in
        guard level > .debug else { return }
        #if canImport(os)
        if #available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *) {
            let logger = Logger(subsystem: "ConsentKit", category: "ConsentKit")
            switch level {
            case .debug: logger.debug("\(message, privacy: .public)")
            case .info: logger.info("\(message, privacy: .public)")
            case .warning: logger.warning("\(message, privacy: .public)")
            case .error: logger.error("\(message, privacy: .public)")
            }
            return
        }
        #endif
        FileHandle.standardError.write(Data("ConsentKit \(level.rawValue): \(message)\n".utf8))
    }
}
