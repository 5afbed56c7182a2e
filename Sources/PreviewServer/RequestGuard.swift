import Foundation
import Hummingbird

/// The checks every request passes before a route sees it:
/// - the Host header names the address the server is bound to (with its port), so a page of
///   another site whose name was re-pointed at 127.0.0.1 (DNS rebinding) gets 421, not data;
/// - a request a browser sends for a page of another site (`Sec-Fetch-Site: cross-site` or
///   `same-site`: another port of this machine is another origin of the same site) is refused
///   (403), so no page elsewhere can make the server render; only a link that opens the page
///   itself is followed. Without the header (older browsers, other clients) it is served;
/// - a request that changes something (any method but GET and HEAD) must be JSON
///   (`Content-Type: application/json`, which a page of another site cannot send without
///   asking first, and this server answers no such question) else 415, and one whose `Origin`
///   is another site's is refused (403);
/// - a path with `%`, `\`, `..` or an empty segment is 404 at once. No route maps URL text to
///   a file anyway: pages and assets are fixed names served from memory, frames and pieces are
///   named by numbers and hex keys that are looked up, never joined to a path.
struct RequestGuard: RouterMiddleware {
    typealias Context = PreviewContext
    let hosts: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard hosts.allows(authority: request.head.authority) else {
            throw HTTPError(.misdirectedRequest, message: "this server answers to \(hosts.example) only\n")
        }
        if let site = Self.header("Sec-Fetch-Site", of: request), site != "same-origin", site != "none", !Self.opensThePage(request) {
            throw HTTPError(.forbidden, message: "requests from pages of other sites are refused (Sec-Fetch-Site: \(site)); open http://\(hosts.example)/ itself\n")
        }
        if request.method != .get, request.method != .head {
            if let origin = request.headers[.origin], !hosts.allows(origin: origin) {
                throw HTTPError(.forbidden, message: "requests from other sites are refused\n")
            }
            guard Self.isJSON(request.headers[.contentType]) else {
                throw HTTPError(.unsupportedMediaType, message: "send the body as JSON, with the header Content-Type: application/json\n")
            }
        }
        let path = request.uri.path
        guard path.hasPrefix("/"), !path.contains("%"), !path.contains("\\"), !path.contains("//"),
              !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            throw HTTPError(.notFound)
        }
        var response = try await next(request, context)
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }

    /// A link followed to the page: a top-level GET of `/` (what it then asks is same-origin).
    private static func opensThePage(_ request: Request) -> Bool {
        request.method == .get && request.uri.path == "/" && header("Sec-Fetch-Mode", of: request) == "navigate"
            && header("Sec-Fetch-Dest", of: request) == "document"
    }

    private static func header(_ name: String, of request: Request) -> String? { request.headers[.init(name)!] }

    /// `application/json`, with parameters or not (`; charset=utf-8`).
    private static func isJSON(_ contentType: String?) -> Bool {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}

/// The Host header values the server answers to: the bound address (and `localhost` when it
/// is a loopback address) with the bound port; a Host without a port means 80, so it is taken
/// only by a server on port 80. Bound to every interface (`0.0.0.0`, `::`, only with
/// `--allow-remote`), any IP address literal is taken, but still no name but `localhost`:
/// rebinding needs a name.
struct AllowedHosts: Sendable {
    let host: String
    let bound: BoundPort
    var port: Int { bound.value }

    init(host: String, port: BoundPort) {
        self.host = host
        bound = port
    }

    var example: String { "\(Self.bracketed(host)):\(port)" }

    func allows(authority: String?) -> Bool {
        guard let authority, let (name, port) = Self.split(authority), port == self.port else { return false }
        if name == "localhost" { return Self.isLoopback(host) || Self.isAnyAddress(host) }
        if Self.isAnyAddress(host) { return Self.isAddressLiteral(name) }
        return name == host.lowercased()
    }

    /// `http://127.0.0.1:8080`, as a browser sends it in `Origin`.
    func allows(origin: String) -> Bool {
        origin.lowercased().hasPrefix("http://") && allows(authority: String(origin.dropFirst("http://".count)))
    }

    /// `host:port` or `[v6]:port` → (host without brackets, lowercased; port). Without
    /// `:port` the port is http's default, 80 (what a browser sends for `http://127.0.0.1/`).
    private static func split(_ authority: String) -> (String, Int)? {
        let text = authority.lowercased()
        let name: Substring, rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            rest = text[text.index(after: close)...]
        } else {
            let colon = text.firstIndex(of: ":") ?? text.endIndex
            (name, rest) = (text[..<colon], text[colon...])
        }
        if rest.isEmpty { return (String(name), 80) }
        guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
        return (String(name), port)
    }

    static func isLoopback(_ host: String) -> Bool { host.hasPrefix("127.") || host == "::1" || host == "localhost" }
    static func isAnyAddress(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" }

    private static func isAddressLiteral(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
