import Hummingbird
import NIOCore

/// What a connection may hold of the server, so that no client (a page of another site, a
/// script) keeps it busy: a request's head must have come whole within `headTimeout` of
/// connecting or of the last answer, at most `maximum` connections are served at once (more
/// wait in the kernel's queue until one closes), and a client that closes its side of the
/// connection has left (`ClosesWhenClientLeaves`).
enum Connections {
    static let headTimeout: TimeAmount = .seconds(10)
    /// A browser opens at most 6 connections to one server; this is room for several pages.
    static let maximum = 64
}

/// The context of a request: Hummingbird's basic one and the connection the request came on.
struct PreviewContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// False once the client has closed or reset the connection: nobody waits for the answer.
    var clientWaits: Bool { channel.isActive }
}

/// Closes a connection when its client closes its side: browsers and HTTP clients keep it
/// open until they have the answer, so the client has left and what it asked for need not be
/// made (Hummingbird lets a client half-close and would otherwise answer into the void).
final class ClosesWhenClientLeaves: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}
