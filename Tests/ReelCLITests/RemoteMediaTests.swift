import Digest
import Foundation
import TestSupport
import Testing

/// `http(s)://` media against a real server on 127.0.0.1 (Support/media_server.py) serving a
/// lavfi-made MP4: fetched once into the media cache, checked with a conditional GET on the
/// next run, rendered byte for byte as the local copy; 404, 500, a stalling server and a
/// truncated body fail clearly and cache nothing; `--offline` uses only the cache.
@Suite(.serialized) struct RemoteMediaTests {
    static let folder: URL = {
        let url = URL(fileURLWithPath: MediaFactory.path("remote-media"))
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url.appendingPathComponent("served"), withIntermediateDirectories: true)
        return url
    }()

    /// The served file: 2 s of 320x180 video with a tone.
    static let clip: Result<String, any Error> = Result {
        let path = folder.appendingPathComponent("served/clip.mp4").path
        try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2", "-f", "lavfi", "-i", "sine=f=440:d=2",
                                 "-c:v", "libx264", "-c:a", "aac", "-y", path])
        return path
    }

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    /// A project showing `media` for 1.5 s; returns its path.
    func project(_ name: String, media: String) throws -> String {
        let text = """
            reel: 1
            output: { size: [320, 180], fps: 25, segment: 1s, video: { preset: ultrafast } }
            media:
              clip: \(media)
            video:
              - clips:
                  - media: clip
                    duration: 1.5s
            """
        let project = path(name)
        try text.write(toFile: project, atomically: true, encoding: .utf8)
        return project
    }

    /// A fresh media cache (and parts cache) for one test.
    func environment(_ name: String, _ more: [String: String] = [:]) -> [String: String] {
        ["REEL_MEDIA_CACHE_DIR": path("cache-\(name)"), "REEL_CACHE_DIR": path("parts-\(name)"), "REEL_OFFLINE": ""].merging(more) { $1 }
    }

    /// The files of a media cache, without its index and lock.
    func cachedFiles(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path("cache-\(name)"))) ?? []).filter { !$0.hasPrefix("index.") }.sorted()
    }

    @Test func aFetchedClipRendersTheSameBytesAsItsLocalCopyAndIsCheckedNotFetchedAgain() throws {
        let clip = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let remote = try project("remote.yaml", media: "\(server.base)/clip.mp4")
        let local = try project("local.yaml", media: clip)
        let env = environment("render")

        let first = try ReelCommand.run(["render", remote, "-o", path("remote.mp4"), "--progress", "none"], environment: env)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("fetched \(server.base)/clip.mp4"))
        let fetches = server.requests(for: "/clip.mp4")
        #expect(fetches.count == 1 && fetches[0].contains("if-none-match=-"), "\(fetches)")
        // Content-addressed: the cached file is named by the SHA-256 of the served bytes.
        let digest = try SHA256.hexDigest(ofFileAt: clip)
        #expect(cachedFiles("render") == ["\(digest).mp4"])

        let localRun = try ReelCommand.run(["render", local, "-o", path("local.mp4"), "--progress", "none"], environment: environment("local"))
        #expect(localRun.status == 0, "\(localRun.standardError)")
        let fetched = try Data(contentsOf: URL(fileURLWithPath: path("remote.mp4")))
        let localBytes = try Data(contentsOf: URL(fileURLWithPath: path("local.mp4")))
        #expect(!fetched.isEmpty && fetched == localBytes)

        // Segment keys come from the bytes: the same for the URL and the local copy.
        let remotePlan = try ReelCommand.run(["plan", remote, "--json"], environment: env)
        let localPlan = try ReelCommand.run(["plan", local, "--json"], environment: environment("local"))
        #expect(remotePlan.status == 0 && localPlan.status == 0, "\(remotePlan.standardError)")
        #expect(remotePlan.standardOutput == localPlan.standardOutput)

        // The next run asks with the ETag and gets 304: nothing is downloaded again.
        let checks = server.requests(for: "/clip.mp4").dropFirst()
        #expect(checks.count == 1 && checks.allSatisfy { $0.contains("if-none-match=\"") && !$0.contains("if-modified-since=-") }, "\(checks)")
        #expect(remotePlan.standardError.contains("unchanged, using the cached copy"))
        #expect(cachedFiles("render") == ["\(digest).mp4"])

        // Offline: the cached copy, and no request at all.
        let offline = try ReelCommand.run(["render", remote, "-o", path("offline.mp4"), "--progress", "none", "--offline", "--no-cache"],
                                          environment: env)
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(server.requests(for: "/clip.mp4").count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("offline.mp4"))) == fetched)
    }

    @Test func offlineWithoutACachedCopyFailsAndAsksNothing() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let url = "\(server.base)/clip.mp4"
        let project = try project("offline.yaml", media: url)
        for (arguments, env) in [(["validate", project, "--offline"], environment("offline")),
                                 (["validate", project], environment("offline", ["REEL_OFFLINE": "1"]))] {
            let run = try ReelCommand.run(arguments, environment: env)
            #expect(run.status == 66, "\(run.standardError)")
            #expect(run.standardError.contains("offline.yaml:4:9: error: media 'clip' cannot be fetched: \(url) is not in the media cache"),
                    "\(run.standardError)")
        }
        #expect(server.requests.isEmpty)
        #expect(cachedFiles("offline").isEmpty)
    }

    @Test func notFoundFailsAtOnceWithTheStatusAndTheProjectLine() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("missing.yaml", media: "\(server.base)/missing/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("missing"))
        #expect(run.status == 66, "\(run.standardError)")
        #expect(run.standardError.contains("missing.yaml:4:9: error: media 'clip' cannot be fetched: \(server.base)/missing/clip.mp4: "
                                           + "the server answered HTTP 404 Not Found"), "\(run.standardError)")
        #expect(server.requests(for: "/missing/clip.mp4").count == 1) // no retry for a 404
        #expect(cachedFiles("missing").isEmpty)
    }

    @Test func aServerErrorIsRetriedWithBackoffThenFails() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("error.yaml", media: "\(server.base)/error/clip.mp4")
        let start = Date()
        let run = try ReelCommand.run(["render", project, "-o", path("error.mp4")], environment: environment("error"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.status == 75, "\(run.standardError)")
        #expect(run.standardError.contains("error.yaml:4:9: error: media 'clip' cannot be fetched: \(server.base)/error/clip.mp4: "
                                           + "the server answered HTTP 500 Internal Server Error (3 attempts)"), "\(run.standardError)")
        #expect(run.standardError.contains("trying again in 0.5 s") && run.standardError.contains("trying again in 1.0 s"))
        #expect(server.requests(for: "/error/clip.mp4").count == 3)
        #expect(elapsed >= 1.5, "two waits: 0.5 s and 1 s")
        #expect(!FileManager.default.fileExists(atPath: path("error.mp4")))
        #expect(cachedFiles("error").isEmpty)
    }

    @Test func aStallingServerTimesOut() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("stall.yaml", media: "\(server.base)/stall/clip.mp4")
        let start = Date()
        let run = try ReelCommand.run(["validate", project], environment: environment("stall", ["REEL_FETCH_TIMEOUT": "1"]))
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.status == 75, "\(run.standardError)")
        #expect(run.standardError.contains("\(server.base)/stall/clip.mp4: no data for 1 s (timed out) (3 attempts)"), "\(run.standardError)")
        #expect(server.requests(for: "/stall/clip.mp4").count == 3)
        #expect(elapsed < 20, "three 1 s timeouts and 1.5 s of waits, not the server's 60 s stall: \(elapsed) s")
        #expect(cachedFiles("stall").isEmpty)
    }

    @Test func aTruncatedBodyIsAnErrorAndNothingIsCached() throws {
        let clip = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("truncated.yaml", media: "\(server.base)/truncated/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("truncated"))
        let size = try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int ?? 0
        #expect(run.status == 75, "\(run.standardError)")
        #expect(run.standardError.contains("\(server.base)/truncated/clip.mp4: the body ended after \(size / 2) of its \(size) bytes (truncated)"),
                "\(run.standardError)")
        #expect(cachedFiles("truncated").isEmpty)
        let index = (try? String(contentsOfFile: path("cache-truncated/index.json"), encoding: .utf8)) ?? ""
        #expect(!index.contains("truncated"))
    }

    /// Reel asks for the bytes as stored (`Accept-Encoding: identity`); a server that
    /// compresses anyway is fetched whole, its body decompressed, not refused as truncated.
    @Test func compressedResponsesAreFetchedWhole() throws {
        let clip = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("gzip.yaml", media: "\(server.base)/gzip/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("gzip"))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(server.requests(for: "/gzip/clip.mp4").allSatisfy { $0.hasSuffix("accept-encoding=identity") },
                "\(server.requests(for: "/gzip/clip.mp4"))")
        let original = try Data(contentsOf: URL(fileURLWithPath: clip))
        #expect(try cachedFiles("gzip").map { try Data(contentsOf: URL(fileURLWithPath: path("cache-gzip/\($0)"))) } == [original])
    }

    /// A file larger than the download limit (`REEL_FETCH_MAX`, 1G by default) is refused at
    /// its headers, once (retrying cannot help), and nothing is cached.
    @Test func aFileLargerThanTheLimitIsRefusedAtOnce() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let project = try project("too-large.yaml", media: "\(server.base)/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("too-large", ["REEL_FETCH_MAX": "1K"]))
        #expect(run.status != 0)
        #expect(run.standardError.contains("\(server.base)/clip.mp4: it is larger than the download limit of 1024 bytes (REEL_FETCH_MAX sets it)"),
                "\(run.standardError)")
        #expect(server.requests(for: "/clip.mp4").count == 1)
        #expect(cachedFiles("too-large").isEmpty)
        let malformed = try ReelCommand.run(["validate", project], environment: environment("too-large", ["REEL_FETCH_MAX": "lots"]))
        #expect(malformed.status == 64 && malformed.standardError.contains("REEL_FETCH_MAX must be a number of bytes like 500M or 2G, not 'lots'"),
                "\(malformed.standardError)")
    }

    /// A download a killed process left in the cache folder goes with the next fetch; one a
    /// live process holds, and one written a moment ago, stay.
    @Test func downloadsAKilledProcessLeftGoWithTheNextFetch() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let cache = path("cache-sweep")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        for name in [".download-abandoned", ".download-live", ".download-fresh"] {
            #expect(FileManager.default.createFile(atPath: "\(cache)/\(name)", contents: Data([1, 2, 3])))
            if name != ".download-fresh" {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: "\(cache)/\(name)")
            }
        }
        let live = open("\(cache)/.download-live", O_RDONLY)
        defer { close(live) }
        #expect(flock(live, LOCK_EX | LOCK_NB) == 0)
        let run = try ReelCommand.run(["validate", try project("sweep.yaml", media: "\(server.base)/clip.mp4")], environment: environment("sweep"))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(cachedFiles("sweep").filter { $0.hasPrefix(".download-") } == [".download-fresh", ".download-live"])
        #expect(cachedFiles("sweep").contains { $0.hasSuffix(".mp4") })
    }

    @Test func onlyHttpAndHttpsAreFetched() throws {
        let project = try project("ftp.yaml", media: "ftp://example.com/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("ftp"))
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains("ftp.yaml:4:9: error: media 'clip': 'ftp://' media cannot be read: Reel fetches only http:// and https:// URLs"),
                "\(run.standardError)")
    }
}
