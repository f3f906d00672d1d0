import HummingbirdCore
import Logging
import NIOCore

/// consentd's HTTP/1.1 connections: Hummingbird's ``HTTP1Channel`` with a ``ConnectionGuard``
/// after the codec and a ``RequestStartWatcher`` in front of it, each connection entered in the
/// ``ConnectionTable`` of every listener (and closed at once when its address holds its share).
struct ConsentdChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    private let http1: HTTP1Channel
    private let listener: String
    private let cap: Int
    private let connections: ConnectionTable

    /// A channel of the listener `listener` (which holds at most `cap` connections) answering
    /// with `responder`, within `timeouts`.
    init(responder: @escaping HTTPChannelHandler.Responder, timeouts: ConnectionTimeouts, listener: String, cap: Int,
         connections: ConnectionTable) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(additionalChannelHandlers: [ConnectionGuard(timeouts: timeouts)]))
        self.listener = listener
        self.cap = cap
        self.connections = connections
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { [connections, listener, cap] value in
            let pipeline = channel.pipeline.syncOperations
            let connectionGuard = try pipeline.handler(type: ConnectionGuard.self)
            try pipeline.addHandler(RequestStartWatcher(connectionGuard), position: .first)
            guard let ticket = connections.admit(channel, listener: listener, cap: cap) else {
                logger.debug("connection refused: its address holds its share", metadata: ["listener": "\(listener)"])
                channel.close(promise: nil)
                return value
            }
            connectionGuard.ticket = (connections, ticket)
            channel.closeFuture.whenComplete { _ in connections.remove(ticket) }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
