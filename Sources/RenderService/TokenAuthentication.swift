import HTTPTypes
import Hummingbird

/// A route of the API: its method and its path as the router and the OpenAPI document name it
/// (`/v1/renders/{id}`).
struct Route: Hashable, Sendable, CustomStringConvertible {
    let method: HTTPRequest.Method
    let path: String

    init(_ method: HTTPRequest.Method, _ path: String) {
        self.method = method
        self.path = path
    }

    var description: String { "\(method) \(path)" }
}

/// Deny by default: every request needs `Authorization: Bearer TOKEN` with a live token, but
/// those whose route is on `publicRoutes`. It runs as router middleware, after the router has
/// matched the request (and `CanonicalPaths` has refused every odd spelling of its path), so it
/// judges the route that answers, never the text of the path. A request that matches no route
/// needs a token too: without one it is a 401 that tells nothing of what exists, with one a 404.
struct TokenAuthentication: RouterMiddleware {
    let store: RenderStore

    /// The routes anyone may call, and the only ones: whether the service answers (for load
    /// balancers and orchestrators) and the API's description. `GET /metrics` is not one: its
    /// counts are the whole service's, every tenant's (how many renders wait, fail, how webhook
    /// deliveries go), which is no one's business on the network; a scraper has a token of its own.
    static let publicRoutes: Set<Route> = [Route(.get, "/healthz"), Route(.get, "/v1/openapi.json")]

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        if let path = context.endpointPath, Self.publicRoutes.contains(Route(request.method, path)) { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
              let name = try await store.tokenName(secret: String(header.dropFirst("Bearer ".count))) else {
            let open = Self.publicRoutes.map(\.description).sorted().joined(separator: " and ")
            var response = try ServiceRoutes.json(ErrorView("this request needs Authorization: Bearer TOKEN with a live token (reel serve token create NAME); only \(open) are open to all"),
                                                  status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        var context = context
        context.token = name
        return try await next(request, context)
    }
}
