import CompositionGraph
import Foundation
import Hummingbird
import HTTPTesting
import MediaIO
@testable import PreviewServer
import ProjectFile
import ReelApplication
import RemoteMedia
import RenderEngine
import TestSupport
import Testing

/// The preview's routes in-process, through Hummingbird's test client over a real connection:
/// the page, the state, exact frames, playback pieces, the timeline, setting vars, and the
/// request guard's refusals. (Chromium drives the whole page in `scripts/test-preview-browser`.)
@Suite(.serialized) struct PreviewRoutesTests {
    static let folder = MediaFactory.folder("preview-routes")

    /// A 3 s project (two segments) whose overlay shows the var `headline`.
    static func project() throws -> String {
        let clip = try MediaFactory.file("preview-routes-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3",
                                                                     "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-shortest"])
        let path = folder.appendingPathComponent("project.yaml").path
        try """
            reel: 1
            vars: { headline: { type: string, default: Hello } }
            output: { size: [160, 90], fps: 25 }
            media: { clip: \(clip) }
            video: [{ clips: [{ media: clip, duration: 3s }] }]
            overlays: [{ text: "{{ headline }}", duration: 3s, style: { size: 24, color: "#ffffff" } }]
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `body` against the routes of a started session on `project`. The client sends
    /// `Host: localhost`, which the guard takes for a server on port 80.
    static func withRoutes(_ project: String, _ body: @escaping @Sendable (LiveClient, PreviewSession) async throws -> Void) async throws {
        let workspace = Workspace(remote: RemoteMediaCache(settings: RemoteMediaSettings(folder: folder.appendingPathComponent("media-cache").path,
                                                                                         offline: true)))
        let configuration = PreviewConfiguration(projectPath: project, workspace: workspace, setVars: [], varsFile: nil, rendition: nil,
                                                 size: StillSize(width: 160, height: nil), host: "localhost", port: 80,
                                                 cacheFolder: folder.appendingPathComponent("cache").path, log: { _ in })
        let session = PreviewSession(configuration)
        session.start()
        defer { session.stop() }
        let router = PreviewRoutes.router(session: session, assets: try PageAssets(), hosts: AllowedHosts(host: "localhost", port: BoundPort(80)))
        try await withTaskExecutorPreference(ServerExecutor.shared) { try await LiveServer.serve(router, host: "localhost") { client in try await body(client, session) } }
    }

    /// The page's state once its version is above `after`, as JSON.
    static func state(_ client: LiveClient, after: Int) async throws -> [String: Any] {
        try await client.execute(uri: "/api/state?after=\(after)", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        }
    }

    /// Waits (long polls) until the state shows a generation newer than `than`.
    static func generation(_ client: LiveClient, newerThan than: Int = 0) async throws -> [String: Any] {
        var version = 0
        for _ in 0..<20 {
            let state = try await state(client, after: version)
            version = state["version"] as? Int ?? version
            if let generation = state["generation"] as? Int, generation > than { return state }
            #expect(state["diagnostics"] as? String == nil, "\(state)")
        }
        Issue.record("no generation newer than \(than) came")
        return [:]
    }

    @Test func thePageTheStateAndTheTimeline() async throws {
        try await Self.withRoutes(try Self.project()) { client, _ in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                #expect(String(buffer: response.body).contains("preview.js"))
            }
            let state = try await Self.generation(client)
            #expect(state["frames"] as? Int == 75)
            #expect(state["width"] as? Int == 160 && state["height"] as? Int == 90)
            #expect(state["frameDuration"] as? [Int] == [1, 25])
            #expect(state["hasAudio"] as? Bool == true)
            let segments = try #require(state["segments"] as? [[String: Any]])
            #expect(segments.count == 2, "\(segments)")
            let vars = try #require(state["vars"] as? [[String: Any]])
            #expect(vars.first?["name"] as? String == "headline" && vars.first?["value"] as? String == "Hello")
            let generation = try #require(state["generation"] as? Int)
            try await client.execute(uri: "/timeline/\(generation)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<html"))
            }
            for missing in ["/timeline/\(generation + 5)", "/nothing", "/api", "/frame/%2e%2e/0.png"] {
                try await client.execute(uri: missing, method: .get) { #expect($0.status == .notFound, "\(missing)") }
            }
        }
    }

    /// A frame is `reel frame`'s PNG, byte for byte; frame numbers are digits in range.
    @Test func framesAreExactAndNumbered() async throws {
        let project = try Self.project()
        try await Self.withRoutes(project) { client, session in
            let state = try await Self.generation(client)
            let generation = try #require(state["generation"] as? Int)
            let served = try await client.execute(uri: "/frame/\(generation)/40.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                return [UInt8](Data(buffer: response.body))
            }
            let graph = try #require(session.generation(generation)?.graph)
            let expected = try PNGEncoder.encode(try FrameGenerator(graph: graph).image(40, size: PixelSize(width: 160, height: 90)))
            #expect(served == expected)
            for bad in ["75.png", "040.png", "-1.png", "4a.png", "40.jpg"] {
                try await client.execute(uri: "/frame/\(generation)/\(bad)", method: .get) { #expect($0.status == .notFound, "\(bad)") }
            }
            try await client.execute(uri: "/frame/\(generation + 9)/0.png", method: .get) { #expect($0.status == .notFound) }
        }
    }

    /// A piece is a fragmented MP4 of its segment, named by its key; unknown keys are 404.
    @Test func piecesAreFragmentedMP4ByKey() async throws {
        try await Self.withRoutes(try Self.project()) { client, _ in
            let state = try await Self.generation(client)
            let key = try #require((state["segments"] as? [[String: Any]])?.last?["key"] as? String)
            try await client.execute(uri: "/piece/\(key).mp4", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "video/mp4")
                let bytes = [UInt8](Data(buffer: response.body))
                #expect(bytes.count > 1000 && String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
                #expect(String(decoding: bytes, as: UTF8.self).contains("moof"), "not fragmented")
            }
            for bad in [String(repeating: "0", count: 64) + ".mp4", key.uppercased() + ".mp4", key, "abc.mp4"] {
                try await client.execute(uri: "/piece/\(bad)", method: .get) { #expect($0.status == .notFound, "\(bad)") }
            }
        }
    }

    /// Setting a var from the page makes a new generation with the value; only JSON from this
    /// server's own page is taken.
    @Test func settingVarsAndTheGuard() async throws {
        try await Self.withRoutes(try Self.project()) { client, _ in
            let first = try await Self.generation(client)
            let number = try #require(first["generation"] as? Int)
            let json: HTTPFields = [.contentType: "application/json"]
            let body = ByteBuffer(string: #"{"headline": "Changed"}"#)
            try await client.execute(uri: "/api/vars", method: .post, headers: [:], body: body) { #expect($0.status == .unsupportedMediaType) }
            try await client.execute(uri: "/api/vars", method: .post, headers: [.contentType: "text/plain"], body: body) {
                #expect($0.status == .unsupportedMediaType)
            }
            try await client.execute(uri: "/api/vars", method: .post, headers: [.contentType: "application/json", .origin: "http://evil.example"],
                                     body: body) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/state", method: .get, headers: [.init("Sec-Fetch-Site")!: "cross-site"]) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/vars", method: .post, headers: json, body: body) { #expect($0.status == .noContent) }
            let second = try await Self.generation(client, newerThan: number)
            let vars = second["vars"] as? [[String: Any]]
            #expect(vars?.first?["value"] as? String == "Changed")
            let keys = { (state: [String: Any]) in (state["segments"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? [] }
            #expect(keys(first).count == 2 && keys(second).count == 2)
            #expect(Set(keys(first)).isDisjoint(with: keys(second)), "the headline shows in both segments")
            try await client.execute(uri: "/api/playhead", method: .post, headers: json, body: ByteBuffer(string: #"{"segment": 1}"#)) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/api/playhead", method: .post, headers: json, body: ByteBuffer(string: "{}")) {
                #expect($0.status == .badRequest)
            }
        }
    }
}
