import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends the connection after an answer given before its request's body came whole.
///
/// A route answers before it has read the whole body when it refuses the request: 413 once
/// the body is over the limit, 401 without a token, 400 for a refused path. Hummingbird then
/// either reads and drops the rest of the body, however large, to find the next request on the
/// connection, or, when the request said `Connection: close`, reads nothing more and waits for
/// the client to close: a client that sends its whole body before it reads the answer (Python's
/// urllib, many scripts) waits in its write until it times out. Here such an answer goes out
/// with `Connection: close`, the connection's sending side is shut once it is sent, and what
/// the client still sends is read and dropped until its request ends, it closes its side, or
/// `lingering` has passed; then the connection is closed. So the client finishes writing and
/// reads its answer at once, and no client holds a connection open by sending more.
final class EarlyAnswers: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the rest of a request is read and dropped after an early answer, at most.
    let lingering: TimeAmount

    /// Requests whose end has come, and final answers begun: answers go out in the order of
    /// the requests, so answer n is early while fewer than n requests have ended.
    private var requestsEnded = 0
    private var answersBegun = 0
    private var answeringEarly = false
    private var dropping = false
    private var deadline: Scheduled<Void>?

    init(lingering: TimeAmount) { self.lingering = lingering }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let ended = if case .end = unwrapInboundIn(data) { true } else { false }
        guard !dropping else {
            if ended { context.close(promise: nil) }
            return
        }
        if ended { requestsEnded += 1 }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        // The handlers after this one read no more of this connection: read on for them.
        if dropping { context.read() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.kind != .informational:
            answersBegun += 1
            answeringEarly = requestsEnded < answersBegun
            guard answeringEarly else { break }
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .end where answeringEarly:
            answeringEarly = false
            context.writeAndFlush(data, promise: promise)
            drop(context)
            return
        default:
            break
        }
        context.write(data, promise: promise)
    }

    /// Shuts the sending side once the answer is out and reads and drops the rest.
    private func drop(_ context: ChannelHandlerContext) {
        dropping = true
        context.close(mode: .output, promise: nil)
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: lingering) { context.close(promise: nil) }
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if dropping, case .inputClosed? = event as? ChannelEvent {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }
}
