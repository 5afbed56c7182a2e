import Foundation
import Hummingbird

/// The server's routes: the page and its assets, the state (long polling), the vars form, the
/// playhead, exact frames, playback pieces and the timeline. Anything else is 404.
enum PreviewRoutes {
    /// How long a state request waits for a change before answering with the same state.
    static let longPoll: Duration = .seconds(15)

    static func router(session: PreviewSession, assets: PageAssets, hosts: AllowedHosts) -> Router<PreviewContext> {
        let router = Router(context: PreviewContext.self)
        router.add(middleware: RequestGuard(hosts: hosts))

        router.get("/") { _, _ in asset(assets, "index.html") }
        router.get("/preview.js") { _, _ in asset(assets, "preview.js") }
        router.get("/preview.css") { _, _ in asset(assets, "preview.css") }

        // The state, once its version is above `after` (or after a while, or at shutdown).
        router.get("/api/state") { request, _ in
            let after = request.uri.queryParameters.get("after").flatMap { Int($0) } ?? -1
            let deadline = ContinuousClock.now + longPoll
            var state = session.snapshot
            while state.version <= after, !session.isStopped, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(40))
                state = session.snapshot
            }
            return try json(state)
        }

        router.post("/api/vars") { request, context in
            let values = try await request.decode(as: [String: String].self, context: context)
            session.setVars(values)
            return Response(status: .noContent)
        }

        router.post("/api/playhead") { request, context in
            struct Playhead: Decodable { var segment: Int }
            session.playhead(segment: try await request.decode(as: Playhead.self, context: context).segment)
            return Response(status: .noContent)
        }

        // /frame/GENERATION/N.png: frame N, exactly as `reel frame` makes it.
        // A still whose client has left, or that newer asks superseded, is not made (503).
        router.get("/frame/:generation/:name") { _, context in
            guard let number = context.parameters.get("generation", as: Int.self), let generation = session.generation(number),
                  let n = frameNumber(context.parameters.get("name")), n < generation.stills.frameCount else {
                throw HTTPError(.notFound)
            }
            do {
                return bytes(try await generation.stills.png(n) { context.clientWaits }, type: "image/png", cache: "private, max-age=3600")
            } catch is StillFrames.Dropped {
                throw HTTPError(.serviceUnavailable, message: "stills asked for after this one came first; ask again if it is still wanted\n")
            }
        }

        // /piece/KEY.mp4: one segment's video and audio as fragmented MP4, made on demand.
        // The pieces after it are made next, in the background: the player will ask for them.
        router.get("/piece/:name") { _, context in
            guard let name = context.parameters.get("name"), name.hasSuffix(".mp4") else { throw HTTPError(.notFound) }
            let key = name.dropLast(".mp4".count)
            guard key.count == 64, key.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
                  let (generation, index) = session.piece(key: String(key)) else {
                throw HTTPError(.notFound)
            }
            let path: String
            do {
                path = try await session.pieces.piece(generation, index)
            } catch where generation.playback.isCancelled || error is CancellationError {
                throw HTTPError(.notFound, message: "the project changed: ask the state again\n")
            }
            session.pieces.prefetch(generation, from: index + 1)
            return bytes(Array(try Data(contentsOf: URL(fileURLWithPath: path))), type: "video/mp4", cache: "private, max-age=86400, immutable")
        }

        router.get("/timeline/:generation") { _, context in
            guard let number = context.parameters.get("generation", as: Int.self), let page = session.timeline(number) else {
                throw HTTPError(.notFound)
            }
            return bytes(Array(page.utf8), type: "text/html; charset=utf-8", cache: "no-store")
        }
        return router
    }

    private static func asset(_ assets: PageAssets, _ name: String) -> Response {
        guard let asset = assets[name] else { return Response(status: .notFound) }
        return bytes(asset.bytes, type: asset.contentType, cache: "no-store")
    }

    private static func json(_ value: some Encodable) throws -> Response {
        bytes(Array(try JSONEncoder().encode(value)), type: "application/json", cache: "no-store")
    }

    private static func bytes(_ bytes: [UInt8], type: String, cache: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: cache], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `123.png` → 123 (digits only, no sign or leading zero).
    private static func frameNumber(_ name: String?) -> Int64? {
        guard let name, name.hasSuffix(".png") else { return nil }
        let digits = name.dropLast(".png".count)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), digits == "0" || !digits.hasPrefix("0") else { return nil }
        return Int64(digits)
    }
}
