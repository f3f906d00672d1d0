import HummingbirdCore
import Logging
import NIOCore

/// consentd's HTTP/1.1 connections: Hummingbird's ``HTTP1Channel`` with a ``ConnectionGuard``
/// after the codec and a ``RequestStartWatcher`` in front of it.
struct ConsentdChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    private let http1: HTTP1Channel

    /// A channel answering with `responder`, within `timeouts`.
    init(responder: @escaping HTTPChannelHandler.Responder, timeouts: ConnectionTimeouts) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(additionalChannelHandlers: [ConnectionGuard(timeouts: timeouts)]))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(RequestStartWatcher(try pipeline.handler(type: ConnectionGuard.self)), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
