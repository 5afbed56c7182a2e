import Foundation

/// `webhook_receiver.py` on 127.0.0.1 (answering 200, 500, slowly or with a redirect; see the
/// script), recording every request, for as long as the value lives.
public final class WebhookReceiver {
    private let script: LoopbackScript
    public var port: Int { script.port }

    /// One request as the receiver got it.
    public struct Request: Decodable {
        public var method: String
        public var path: String
        /// By lower-cased name.
        public var headers: [String: String]
        /// The raw bytes.
        public var body: Data
    }

    public init() throws {
        script = try LoopbackScript("Tests/TestSupport/webhook_receiver.py")
    }

    /// `http://HOST:PORT/PATH`.
    public func url(_ path: String, host: String = "127.0.0.1") -> String { "http://\(host):\(port)/\(path)" }

    /// The requests so far, in the order they arrived.
    public func requests() throws -> [Request] {
        try script.lines.map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }
}
