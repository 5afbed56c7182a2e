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
        let run = try ReelCommand.run(["validate", project], environment: environment("stall", ["REEL_FETCH_TIMEOUT": "1"]))
        #expect(run.status == 75, "\(run.standardError)")
        // The 1 s timeout ended each attempt: the server stalls until it is stopped.
        #expect(run.standardError.contains("\(server.base)/stall/clip.mp4: no data for 1 s (timed out) (3 attempts)"), "\(run.standardError)")
        #expect(server.requests(for: "/stall/clip.mp4").count == 3)
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
        #expect(run.status == 65, "\(run.standardError)")
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

    /// A server sending a byte a second: the fetch fails once the last REEL_FETCH_TIMEOUT
    /// seconds brought fewer than REEL_FETCH_MIN_RATE bytes a second (1K by default), retried
    /// like a timeout; REEL_FETCH_DEADLINE ends the whole fetch, attempts included.
    @Test func aSlowServerFailsAtTheMinimumRateAndAtTheDeadline() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let url = "\(server.base)/slow/clip.mp4"
        let project = try project("slow.yaml", media: url)
        let slow = try BackgroundReel(["validate", project], environment: environment("slow", ["REEL_FETCH_TIMEOUT": "1"]))
        #expect(slow.exitStatus(within: 30) == 75, "\(slow.standardError)")
        #expect(slow.standardError.contains("slow.yaml:4:9: error: media 'clip' cannot be fetched: \(url): fewer than 1024 bytes a second came over 1 s "
                                            + "(REEL_FETCH_MIN_RATE sets the minimum) (3 attempts)"), "\(slow.standardError)")
        #expect(server.requests(for: "/slow/clip.mp4").count == 3)
        #expect(cachedFiles("slow").isEmpty)

        let late = try BackgroundReel(["validate", project], environment: environment("deadline", ["REEL_FETCH_MIN_RATE": "0", "REEL_FETCH_DEADLINE": "2"]))
        #expect(late.exitStatus(within: 30) == 75, "\(late.standardError)")
        #expect(late.standardError.contains("\(url): not fetched within 2 s (REEL_FETCH_DEADLINE sets it)\n"), "\(late.standardError)")
        #expect(late.standardError.contains("hint: raise REEL_FETCH_DEADLINE"))
        #expect(server.requests(for: "/slow/clip.mp4").count == 4, "one attempt: the deadline is the whole fetch's")
        #expect(cachedFiles("deadline").isEmpty)
    }

    /// Ctrl-C or SIGTERM during a download ends `reel render` at once with 130, its partial
    /// download removed; while it waits on a slow server it uses no CPU to speak of.
    @Test(arguments: [SIGINT, SIGTERM]) func aSignalCancelsADownload(signal: Int32) throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let url = "\(server.base)/slow/clip.mp4"
        let name = "signal-\(signal)"
        let render = try BackgroundReel(["render", try project("\(name).yaml", media: url), "-o", path("\(name).mp4")],
                                        environment: environment(name, ["REEL_FETCH_MIN_RATE": "0"]))
        // The server sends one byte a second: the CPU time reel spends while three of them come.
        func downloaded() -> Int? {
            cachedFiles(name).first { $0.hasPrefix(".download-") }
                .flatMap { try? FileManager.default.attributesOfItem(atPath: path("cache-\(name)/\($0)"))[.size] as? Int }
        }
        #expect(render.waitUntil(seconds: 10) { (downloaded() ?? 0) > 0 })
        let (bytes, cpu) = (downloaded() ?? 0, render.cpuSeconds)
        #expect(render.waitUntil(seconds: 30) { (downloaded() ?? 0) >= bytes + 3 })
        #expect(render.cpuSeconds - cpu < 0.3, "CPU seconds while 3 bytes of a slow download came: \(render.cpuSeconds - cpu)")
        kill(render.process.processIdentifier, signal)
        #expect(render.exitStatus(within: 3) == 130, "\(render.standardError)")
        #expect(render.standardError.contains("\(name).yaml:4:9: error: media 'clip' cannot be fetched: \(url): the fetch was cancelled"),
                "\(render.standardError)")
        #expect(cachedFiles(name).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path("\(name).mp4")))
    }

    /// `reel preview` opens its port while its first load waits on a slow download, answers,
    /// and stops at once on SIGINT or SIGTERM.
    @Test(arguments: [SIGINT, SIGTERM]) func thePreviewServesWhileADownloadIsSlow(signal: Int32) throws {
        let name = "preview-\(signal)"
        let (server, preview) = try slowPreview(name)
        let port = try #require(preview.standardOutput.firstMatch(of: /127\.0\.0\.1:(\d+)/).map { String($0.1) })
        let page = try MediaFactory.run("/usr/bin/curl", ["-s", "-m", "5", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/state"])
        #expect(page == "200")
        #expect(preview.waitUntil(seconds: 10) { server.requests(for: "/slow/clip.mp4").count == 1 })
        kill(preview.process.processIdentifier, signal)
        #expect(preview.exitStatus(within: 3) == 0, "\(preview.standardError)")
        #expect(cachedFiles(name).isEmpty)
    }

    /// `reel preview` of a project whose clip comes from a server sending a byte a second, once
    /// it says its port is open.
    func slowPreview(_ name: String) throws -> (MediaServer, BackgroundReel) {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let preview = try BackgroundReel(["preview", try project("\(name).yaml", media: "\(server.base)/slow/clip.mp4"), "--port", "0"],
                                         environment: environment(name, ["REEL_FETCH_MIN_RATE": "0"]))
        #expect(preview.waitUntil(seconds: 10) { preview.standardOutput.contains("Previewing") }, "\(preview.standardError)")
        return (server, preview)
    }

    /// A signal as soon as the port opens, before the first load has started its fetch: the
    /// fetch it starts next is cancelled too (it ran on, and its download stayed, when the
    /// signal came first).
    @Test func aSignalBeforeThePreviewsFirstFetchStopsIt() throws {
        let name = "preview-early"
        let (server, preview) = try slowPreview(name)
        withExtendedLifetime(server) {}
        kill(preview.process.processIdentifier, SIGTERM)
        #expect(preview.exitStatus(within: 3) == 0, "\(preview.standardError)")
        #expect(cachedFiles(name).isEmpty)
    }

    /// A redirect loop, a redirect to ftp: and a web page cannot become media by asking again:
    /// one attempt, exit 65, a message saying which.
    @Test func permanentFailuresAreNotRetried() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        for (mode, requests, message, hint) in [
            ("loop", 11, "it redirects more than 10 times (a redirect loop)", "give the http(s) URL of the file itself"),
            ("to-ftp", 1, "it redirects to ftp://127.0.0.1/clip.mp4, and Reel fetches only http:// and https:// URLs", "give the http(s) URL of the file itself"),
            ("html", 1, "it gives a web page (Content-Type: text/html; charset=utf-8), not a media file", "not of the page that shows it"),
        ] {
            let url = "\(server.base)/\(mode)/clip.mp4"
            let run = try ReelCommand.run(["validate", try project("\(mode).yaml", media: url)], environment: environment(mode))
            #expect(run.status == 65, "\(mode): \(run.standardError)")
            #expect(run.standardError.contains("\(mode).yaml:4:9: error: media 'clip' cannot be fetched: \(url): \(message)\n"), "\(run.standardError)")
            #expect(run.standardError.contains(hint), "\(run.standardError)")
            #expect(!run.standardError.contains("trying again"), "\(run.standardError)")
            #expect(server.requests(for: "/\(mode)/clip.mp4").count == requests, "\(mode): \(server.requests)")
            #expect(cachedFiles(mode).filter { !$0.hasPrefix(".") }.isEmpty)
        }
    }

    /// Schemes are case-insensitive (RFC 3986): `HTTP://` is fetched.
    @Test func aSchemeInCapitalsIsFetched() throws {
        let clip = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let run = try ReelCommand.run(["validate", try project("capitals.yaml", media: "HTTP://127.0.0.1:\(server.port)/clip.mp4")],
                                      environment: environment("capitals"))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(cachedFiles("capitals") == ["\(try SHA256.hexDigest(ofFileAt: clip)).mp4"])
    }

    /// A user and password in a media URL reach the server (Basic authentication) but no
    /// message, progress line or `index.json`.
    @Test func credentialsInAURLAreSentButNeverShownOrStored() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        let shown = "http://***@127.0.0.1:\(server.port)/auth/clip.mp4"
        let good = try ReelCommand.run(["validate", try project("auth.yaml", media: "http://user:secret@127.0.0.1:\(server.port)/auth/clip.mp4")],
                                       environment: environment("auth"))
        #expect(good.status == 0, "\(good.standardError)")
        #expect(good.standardError.contains("fetched \(shown): "), "\(good.standardError)")
        let index = try String(contentsOfFile: path("cache-auth/index.json"), encoding: .utf8)
        #expect(index.contains(shown) && !index.contains("secret") && !index.contains("user:"), "\(index)")
        let bad = try ReelCommand.run(["validate", try project("wrong.yaml", media: "http://user:wrong@127.0.0.1:\(server.port)/auth/clip.mp4")],
                                      environment: environment("auth"))
        #expect(bad.status == 66, "\(bad.standardError)")
        #expect(bad.standardError.contains("wrong.yaml:4:9: error: media 'clip' cannot be fetched: \(shown): the server answered HTTP 401 Unauthorized"),
                "\(bad.standardError)")
        #expect(!bad.standardError.contains("wrong@") && !bad.standardError.contains("user:"), "\(bad.standardError)")
    }

    /// A media cache folder that cannot be made is worked around: one warning, the render
    /// goes on with the file fetched into a folder of its own, removed at exit.
    @Test func anUnusableCacheFolderIsWarnedAboutAndRenderedAround() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        FileManager.default.createFile(atPath: path("not-a-folder"), contents: Data("x".utf8))
        let env = environment("unusable", ["REEL_MEDIA_CACHE_DIR": path("not-a-folder/media")])
        let run = try ReelCommand.run(["render", try project("unusable.yaml", media: "\(server.base)/clip.mp4"), "-o", path("unusable.mp4"),
                                       "--progress", "none"], environment: env)
        #expect(run.status == 0, "\(run.standardError)")
        let warnings = run.standardError.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: the media cache cannot be used (cannot make the media cache folder \(path("not-a-folder/media"))")
                && warnings[0].hasSuffix("so nothing fetched is kept: set REEL_MEDIA_CACHE_DIR to a writable folder"), "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: path("unusable.mp4")))
        let scratch = try #require(warnings.first?.firstMatch(of: /fetching into (\S+) for this run/).map { String($0.1) })
        #expect(!FileManager.default.fileExists(atPath: scratch))
    }

    /// A download is written as it arrives, not held: fetching 32 MB peaks at most 16 MB above
    /// reading the same file from the cache (FoundationNetworking's URLSession queued the whole
    /// body for its delegate: 690 MB for 600 MB).
    @Test func aLargeDownloadIsNotHeldInMemory() throws {
        _ = try Self.clip.get()
        let big = path("served/big.bin")
        if !FileManager.default.fileExists(atPath: big) {
            var generator = SystemRandomNumberGenerator()
            FileManager.default.createFile(atPath: big, contents: Data((0..<32 << 20).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        }
        let server = try MediaServer(serving: path("served"))
        let project = try project("big.yaml", media: "\(server.base)/big.bin")
        func peak(_ arguments: [String]) throws -> Int {
            let run = try ReelCommand.run(arguments, environment: environment("big"), emulator: ["/usr/bin/time", "-f", "peak=%M"])
            return try #require(run.standardError.firstMatch(of: /peak=(\d+)/).flatMap { Int($0.1) }, "\(run.standardError)")
        }
        let fetching = try peak(["validate", project])
        #expect(cachedFiles("big").count == 1)
        let cached = try peak(["validate", project, "--offline"])
        #expect(fetching - cached < 16 << 10, "peak KB fetching \(fetching), from the cache \(cached)")
    }

    @Test func onlyHttpAndHttpsAreFetched() throws {
        let project = try project("ftp.yaml", media: "ftp://example.com/clip.mp4")
        let run = try ReelCommand.run(["validate", project], environment: environment("ftp"))
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains("ftp.yaml:4:9: error: media 'clip': 'ftp://' media cannot be read: Reel fetches only http:// and https:// URLs"),
                "\(run.standardError)")
    }
}
