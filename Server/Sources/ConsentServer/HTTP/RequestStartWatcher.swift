import NIOCore

/// The first handler of a connection's pipeline: it sees the raw bytes before the HTTP codec and
/// tells ``ConnectionGuard`` that something arrived, so a request's header deadline runs from its
/// first byte, not from its last header (which a slow client never sends).
final class RequestStartWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connectionGuard: ConnectionGuard

    init(_ connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connectionGuard.bytesArrived()
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension RequestStartWatcher: Sendable {}
