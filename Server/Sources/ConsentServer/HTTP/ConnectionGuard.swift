import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What one HTTP/1.1 connection may take of consentd, and the manners Hummingbird leaves to the
/// application. It sits in each connection's pipeline between the HTTP codec and Hummingbird.
///
/// - **Deadlines.** A connection is in one phase at a time, each with its own limit: idle (no
///   request under way: closed after ``ConnectionTimeouts/idle``), reading a head (from the
///   request's first byte, which ``RequestStartWatcher`` reports, to its last header:
///   ``ConnectionTimeouts/header``), reading a body (from the head to the body's end:
///   ``ConnectionTimeouts/body``), and responding (no limit: the server's own time). A connection
///   past its deadline is closed without an answer.
/// - **Write progress.** Whatever the phase, a connection whose output stays blocked (the client
///   does not read: more than NIO's high-water mark of 64 KiB waits to be sent, and it does not
///   fall below the low-water mark of 32 KiB) for ``ConnectionTimeouts/write`` is closed, so a
///   client that never reads cannot hold its slot or the answers queued for it.
/// - **Pipelining.** A client may send at most ``maxPipelined`` requests ahead of their answers;
///   one more closes the connection.
/// - **Its entry in the ``ConnectionTable``**, marked idle or busy as the phase changes, so the
///   table can close the longest-idle connection when a listener is full.
/// - **Client faults.** An error on the connection while a body is under way (a malformed chunk,
///   input that ends early, a reset, the body deadline) reaches the route reading that body as a
///   ``ClientFault``, so it is answered and counted as the client's fault, not the server's.
/// - **`Expect: 100-continue`** is answered with `100 Continue` as the head arrives, so a client
///   waiting for it sends its body at once.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase {
        case idle, readingHead, readingBody, responding
    }

    /// Requests a client may send ahead of their answers.
    static let maxPipelined = 16

    private let timeouts: ConnectionTimeouts
    private var phase = Phase.idle
    private var deadline: Scheduled<Void>?
    private var writeDeadline: Scheduled<Void>?
    /// The connection's entry in the table of every connection, once admitted.
    var ticket: (table: ConnectionTable, ticket: ConnectionTable.Ticket)?
    private var context: ChannelHandlerContext?
    private var bodyTimedOut = false
    private var faultRaised = false
    /// Heads read and responses ended on this connection: a route may answer before it reads the
    /// body (a refusal), and pipelined requests may overlap, so the phase after a body's end
    /// depends on whether its answer is already out.
    private var requestsRead = 0
    private var responsesEnded = 0

    init(timeouts: ConnectionTimeouts) {
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { enter(.idle) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        writeDeadline?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        enter(.idle)
        context.fireChannelActive()
    }

    /// Bytes arrived on the connection (before the HTTP codec): a request starts when it was idle.
    func bytesArrived() {
        if phase == .idle { enter(.readingHead) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestsRead += 1
            if requestsRead - responsesEnded > Self.maxPipelined { context.close(promise: nil) }
            enter(.readingBody)
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            if phase == .readingBody { enter(responsesEnded >= requestsRead ? .idle : .responding) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responsesEnded += 1
            if phase == .responding, responsesEnded >= requestsRead { enter(.idle) }
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writeDeadline?.cancel()
        writeDeadline = nil
        if !context.channel.isWritable {
            writeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeouts.write) { [self] in
                writeDeadline = nil
                self.context?.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard phase == .readingBody else {
            // Before a head (a malformed request line, say) Hummingbird answers 400 itself.
            context.fireErrorCaught(error)
            return
        }
        raiseFault(bodyTimedOut ? .bodyTimedOut : ClientFault(channelError: error), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        writeDeadline?.cancel()
        if phase == .readingBody {
            raiseFault(bodyTimedOut ? .bodyTimedOut : .vanished, context: context)
        }
        context.fireChannelInactive()
    }

    /// Passes one fault per request on to the body stream; later errors of the same request
    /// (the parser's after a close) add nothing.
    private func raiseFault(_ fault: ClientFault, context: ChannelHandlerContext) {
        guard !faultRaised else { return }
        faultRaised = true
        context.fireErrorCaught(fault)
    }

    private func enter(_ next: Phase) {
        deadline?.cancel()
        deadline = nil
        if next == .readingBody {
            bodyTimedOut = false
            faultRaised = false
        }
        if let ticket, (phase == .idle) != (next == .idle) { ticket.table.setIdle(ticket.ticket, next == .idle) }
        phase = next
        let limit: TimeAmount
        switch next {
        case .idle: limit = timeouts.idle
        case .readingHead: limit = timeouts.header
        case .readingBody: limit = timeouts.body
        case .responding: return
        }
        guard let context else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [self] in
            deadline = nil
            if phase == .readingBody { bodyTimedOut = true }
            self.context?.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}

/// The deadlines of a connection (see ``ConnectionGuard``).
struct ConnectionTimeouts: Sendable {
    /// No request under way.
    var idle: TimeAmount
    /// From a request's first byte to the end of its head.
    var header: TimeAmount
    /// From a request's head to the end of its body.
    var body: TimeAmount
    /// The longest a connection's output may stay blocked.
    var write: TimeAmount

    /// The timeouts of `settings`.
    init(_ settings: ServerSettings) {
        idle = TimeAmount(settings.idleTimeout)
        header = TimeAmount(settings.headerTimeout)
        body = TimeAmount(settings.bodyTimeout)
        write = TimeAmount(settings.writeTimeout)
    }
}
