import Foundation
import HTTPTypes
import Hummingbird
import ProjectFile
import ReelApplication

/// What a request carries past authentication: the name of its token.
struct ServiceContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var token = ""

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// The HTTP API (docs/service.md). Every route but `TokenAuthentication.publicRoutes` needs
/// `Authorization: Bearer TOKEN`, and a path in its one spelling (`RequestPath`); a token sees
/// and cancels only its own renders.
enum ServiceRoutes {
    static func router(_ core: ServiceCore) -> Router<ServiceContext> {
        let router = Router(context: ServiceContext.self)
        router.add(middleware: ErrorsAsJSON(paths: core.paths, log: core.log))
        router.add(middleware: CanonicalPaths())
        router.add(middleware: TokenAuthentication(store: core.store))

        router.get("/healthz") { _, _ in try json(["status": "ok"]) }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: try await core.metrics())))
        }
        router.get("/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: core.openAPI)))
        }

        router.post("/v1/renders") { request, context in
            let body = try await core.body(of: request, context: context)
            try await core.checkQueueRoom(for: context.token)
            try await core.check { try RenderOrder.read(body) }
            let key = request.headers[.idempotencyKey]
            let (render, _) = try await core.store.add(RenderRecord(token: context.token, request: body, idempotencyKey: key))
            return try json(RenderView(render), status: .accepted)
        }

        router.put("/v1/templates/:name") { request, context in
            let name = try context.parameters.require("name")
            try TemplateName.check(name)
            let text = try await core.body(of: request, context: context)
            // Checked with its vars' defaults, as a render of it posted with no vars would be.
            try await core.check { try RenderOrder(template: TemplateBody(text)) }
            let now = Date().timeIntervalSince1970
            let stored = try await core.store.put(TemplateRecord(token: context.token, name: name, body: text, createdAt: now, updatedAt: now))
            return try json(TemplateView(stored), status: stored.createdAt == now ? .created : .ok)
        }

        router.get("/v1/templates/:name") { _, context in
            try json(TemplateView(try await core.template(context)))
        }

        router.post("/v1/templates/:name/renders") { request, context in
            let template = try await core.template(context)
            try await core.checkQueueRoom(for: context.token)
            let body = try await core.body(of: request, context: context)
            try await core.check { try RenderOrder.read(body, template: try TemplateBody(template.body, name: TemplateBody.shownName(template.name))) }
            let (render, _) = try await core.store.add(RenderRecord(token: context.token, request: body, template: template,
                                                                    idempotencyKey: request.headers[.idempotencyKey]))
            return try json(RenderView(render), status: .accepted)
        }

        router.post("/v1/templates/:name/batches") { request, context in
            let (batch, warnings) = try await core.batch(of: try await core.template(context), posted: try await core.body(of: request, context: context),
                                                         token: context.token)
            return try json(try await core.view(batch, warnings: warnings), status: .accepted)
        }

        router.get("/v1/batches/:id") { _, context in
            guard let batch = try await core.store.batch(try context.parameters.require("id"), token: context.token) else {
                throw ServiceError.notFound("no batch \(context.parameters.get("id") ?? "")")
            }
            return try json(try await core.view(batch))
        }

        router.post("/v1/validate") { request, context in
            let body = try await core.body(of: request, context: context)
            let warnings = try await core.check { try RenderOrder.read(body) }
            return try json(Validation(valid: true, warnings: core.paths.values(of: warnings).map(DiagnosticView.init)))
        }

        router.get("/v1/renders") { request, context in
            let query = request.uri.queryParameters
            var status: RenderStatus?
            if let given = query.get("status") {
                guard let known = RenderStatus(rawValue: given) else {
                    throw ServiceError.badRequest("status \(given) is not one of " + RenderStatus.allCases.map(\.rawValue).joined(separator: ", "))
                }
                status = known
            }
            let limit = query.get("limit").map { Int($0) ?? 0 } ?? 50
            guard (1...500).contains(limit) else { throw ServiceError.badRequest("limit is a number from 1 to 500") }
            let page = try await core.store.renders(token: context.token, status: status, limit: limit, after: query.get("cursor"))
            return try json(RenderPage(renders: page.map(RenderView.init), nextCursor: page.count == limit ? page.last?.id : nil))
        }

        router.get("/v1/renders/:id") { _, context in
            try json(RenderView(try await core.render(context)))
        }

        router.delete("/v1/renders/:id") { _, context in
            guard let render = try await core.store.cancel(try context.parameters.require("id"), token: context.token) else {
                throw ServiceError.notFound("no render \(context.parameters.get("id") ?? "")")
            }
            return try json(RenderView(render))
        }

        router.get("/v1/renders/:id/output") { request, context in
            try await OutputFile.response(for: try await core.render(context), request: request, context: context)
        }
        return router
    }

    /// `POST /v1/validate`'s answer for a valid project.
    struct Validation: Encodable {
        var valid: Bool
        var warnings: [DiagnosticView]
    }

    /// `value` as pretty-printed JSON with sorted keys.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value) + [0x0A])))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}
