import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// `reel serve` as an operator runs it: tokens from the command line, a render accepted with
/// 202 survives `kill -9` of the service mid-render, finishes after the restart reusing the
/// segments already rendered, with the bytes `reel render` gives; SIGTERM stops it cleanly.
@Suite(.serialized) struct ServeCommandTests {
    struct Service {
        let process: BackgroundReel
        let url: String

        init(data: String, mediaRoot: String) throws {
            process = try BackgroundReel(["serve", "--data", data, "--listen", "127.0.0.1:0", "--media-root", mediaRoot], environment: [:])
            let out = process
            guard process.waitUntil(seconds: 20, { out.standardOutput.contains("Serving the render API at ") }),
                  let line = process.standardOutput.split(separator: "\n").first(where: { $0.contains("Serving the render API at ") }),
                  let url = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
                throw ServeFailure(message: "reel serve did not start: \(process.standardError)")
            }
            self.url = String(url)
        }
    }

    struct ServeFailure: Error { let message: String }

    /// One request, waited for on this thread: the test never yields between watching the
    /// service and killing it (an async test's continuation can wait behind other tests).
    static func call(_ method: String, _ url: String, token: String, body: String? = nil) throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = body.map { Data($0.utf8) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: (Int, Data)?
        URLSession.shared.dataTask(with: request) { data, response, _ in
            answer = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 60) == .success, let answer else { throw ServeFailure(message: "\(method) \(url) got no answer") }
        return answer
    }

    static func render(_ service: Service, _ id: String, token: String) throws -> [String: Any] {
        let (_, data) = try call("GET", "\(service.url)/v1/renders/\(id)", token: token)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @Test func anAcceptedRenderSurvivesKillNine() throws {
        let folder = MediaFactory.folder("serve-\(UUID().uuidString.prefix(8))")
        let media = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        _ = try MediaFactory.run("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=30", "-f", "lavfi",
                                            "-i", "sine=frequency=300:duration=30", "-shortest", media.appendingPathComponent("long.mp4").path])
        let data = folder.appendingPathComponent("data").path
        let created = try ReelCommand.run(["serve", "token", "create", "ci", "--data", data])
        #expect(created.status == 0, "\(created.standardError)")
        let token = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(token.hasPrefix("reel_"))
        let listed = try ReelCommand.run(["serve", "token", "list", "--data", data])
        #expect(listed.standardOutput.hasPrefix("ci  ") && listed.standardOutput.contains("  created ") && !listed.standardOutput.contains(token))

        let project = #"{"reel": 1, "output": {"size": [640, 360], "fps": 25}, "media": {"clip": "long.mp4"}, "video": [{"clips": [{"media": "clip", "duration": "30s"}]}], "overlays": [{"text": "durable", "duration": "30s"}]}"#
        var id = ""
        do {
            let first = try Service(data: data, mediaRoot: media.path)
            let (status, body) = try Self.call("POST", "\(first.url)/v1/renders", token: token, body: "{\"project\": \(project)}")
            #expect(status == 202)
            id = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String)
            // Mid-render: killed once two of its 15 segments are in the cache.
            let cache = URL(fileURLWithPath: data).appendingPathComponent("cache").path
            let parts = { ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasSuffix(".reelpart") }.count }
            #expect(first.process.waitUntil(seconds: 120) { parts() >= 2 }, "no segment was rendered: \(first.process.standardError)")
            kill(first.process.process.processIdentifier, SIGKILL)
            #expect(parts() < 15, "the render finished before it was killed")
            #expect(first.process.exitStatus(within: 5) != nil)
        }
        let second = try Service(data: data, mediaRoot: media.path)
        var render: [String: Any] = [:]
        for _ in 0..<600 {
            render = try Self.render(second, id, token: token)
            if render["status"] as? String == "done" || render["status"] as? String == "failed" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(render["status"] as? String == "done", "\(render) \(second.process.standardError)")
        let segments = render["segments"] as? [String: Int] ?? [:]
        #expect(segments["total"] == 15 && (segments["reused"] ?? 0) >= 2, "\(segments)")
        let (_, served) = try Self.call("GET", "\(second.url)/v1/renders/\(id)/output", token: token)
        try project.write(to: media.appendingPathComponent("project.json"), atomically: true, encoding: .utf8)
        let cli = try ReelCommand.run(["render", "project.json", "-o", "cli.mp4", "--no-cache"], in: media)
        #expect(cli.status == 0, "\(cli.standardError)")
        #expect(try Data(contentsOf: media.appendingPathComponent("cli.mp4")) == served, "the service's output is reel render's")
        kill(second.process.process.processIdentifier, SIGTERM)
        #expect(second.process.exitStatus(within: 10) == 0, "\(second.process.standardError)")
    }

    /// `reel serve token`: a name that is not a token name (empty, a newline that would forge
    /// a line of the list) is bad usage, as is a live token's name; revoked, the name is free
    /// for a new token, and `token list` shows both, each on its own line, told apart by its
    /// fingerprint and state.
    @Test func tokenNamesAreCheckedAndFreedByRevoking() throws {
        let data = MediaFactory.folder("serve-tokens-\(UUID().uuidString.prefix(8))").appendingPathComponent("data").path
        for bad in ["", "ci\nforged  000000000000  created 2026-01-01T00:00:00.000Z  live", String(repeating: "n", count: 65)] {
            let refused = try ReelCommand.run(["serve", "token", "create", bad, "--data", data])
            #expect(refused.status == 64, "\(bad.debugDescription): \(refused.standardError)")
            #expect(refused.standardError.contains("is not a token name: a token name is 1 to 64 letters, digits"), "\(refused.standardError)")
        }
        let first = try ReelCommand.run(["serve", "token", "create", "ci", "--data", data])
        #expect(first.status == 0, "\(first.standardError)")
        let again = try ReelCommand.run(["serve", "token", "create", "ci", "--data", data])
        #expect(again.status == 64 && again.standardError.contains("error: a live token named ci exists; revoke it first"), "\(again.standardError)")
        #expect(try ReelCommand.run(["serve", "token", "revoke", "ci", "--data", data]).status == 0)
        let second = try ReelCommand.run(["serve", "token", "create", "ci", "--data", data])
        #expect(second.status == 0, "\(second.standardError)")
        let lines = try ReelCommand.run(["serve", "token", "list", "--data", data]).standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        let secrets = [first, second].compactMap { $0.standardOutput.split(separator: "\n").last.map(String.init) }
        let fingerprints = try secrets.map { secret in
            String(try MediaFactory.run("/bin/sh", ["-c", "printf %s \(secret) | sha256sum"]).prefix(12))
        }
        #expect(lines.first?.hasPrefix("ci  \(fingerprints.first ?? "")  created ") == true && lines.first?.contains("  revoked ") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("ci  \(fingerprints.last ?? "")  created ") == true && lines.last?.hasSuffix("  live") == true, "\(lines)")
    }

    /// A database that is not PostgreSQL, or not there, stops the start at once with exit 69 and
    /// says why, without the URL's password.
    @Test func aDatabaseThatCannotBeUsedIsAClearStartFailure() throws {
        let data = MediaFactory.folder("serve-database").appendingPathComponent("data").path
        let notPostgres = try ReelCommand.run(["serve", "--data", data, "--database", "mysql://reel@127.0.0.1/reel"])
        #expect(notPostgres.status == 69)
        #expect(notPostgres.standardError.contains("error: the database URL is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)"), "\(notPostgres.standardError)")
        let absent = try ReelCommand.run(["serve", "token", "list", "--data", data, "--database", "postgres://reel:hunter2@127.0.0.1:9/reel"])
        #expect(absent.status == 69)
        #expect(absent.standardError.contains("cannot connect to the PostgreSQL database postgres://reel:***@127.0.0.1:9/reel"), "\(absent.standardError)")
        #expect(!absent.standardError.contains("hunter2"))
    }
}
