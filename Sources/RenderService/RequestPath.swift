import Hummingbird

/// The one spelling of a path the API answers. Every route's path is made of letters, digits,
/// `-`, `_`, `.` and `~` between single slashes (ids are hex, template names letters, digits,
/// `-`, `_` and `.`), so every other spelling is refused rather than read as some route: an
/// empty segment (`//v1/renders`, a trailing `/`), a `.` or `..` segment, a percent-encoded
/// byte (`%2F`, `%2e`, even `%72` for `r`), any other character (`\`, `;`, a space, non-ASCII),
/// a path that does not start with `/`. Letter case is kept as written: `/V1/Renders` is no
/// route (ids and names are case-sensitive), so nothing is folded into another route either.
enum RequestPath {
    /// Why `path` is refused (a sentence for the client), or nil when it is in its one spelling.
    static func refusal(of path: String) -> String? {
        guard path.hasPrefix("/") else { return "the request path \(quoted(path)) does not start with /" }
        guard path != "/" else { return nil }
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty {
                return "the request path \(quoted(path)) has an empty segment (a doubled or trailing /); write it with single slashes and none at the end"
            }
            if segment == "." || segment == ".." {
                return "the request path \(quoted(path)) has a \(segment) segment; write the path it stands for instead"
            }
            if segment.contains("%") {
                return "the request path \(quoted(path)) has a percent-encoded byte; no route needs one (ids and template names are letters, digits, -, _ and .)"
            }
            if let odd = segment.unicodeScalars.first(where: { !allowed.contains($0) }) {
                return "the request path \(quoted(path)) has the character \(quoted(String(odd))); paths are letters, digits, -, _, . and ~ between single slashes"
            }
        }
        return nil
    }

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~".unicodeScalars)

    /// `text` in quotes, cut short when long, with control characters shown as escapes.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 200 ? text.prefix(200) + "…" : Substring(text)
        return "\"" + shown.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }
}

/// Refuses (400) every request whose path is not in its one spelling (`RequestPath`), before
/// authentication and any route's handler, so that the route a request matched is the one
/// its path names as written.
struct CanonicalPaths: RouterMiddleware {
    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        if let refusal = RequestPath.refusal(of: request.uri.path) { throw ServiceError.badRequest(refusal) }
        return try await next(request, context)
    }
}
