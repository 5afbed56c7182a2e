import Foundation
import PreviewServer
import TestSupport
import Testing

/// `reel preview` as a user's browser (or an attacker's page) meets it: the built executable
/// on a free port, spoken to over plain sockets so paths and Host headers go out exactly as
/// written. The page itself is tested in Chromium by `Tests/Browser/preview_test.py`.
@Suite(.serialized) struct PreviewCommandTests {
    /// A 3 s project of 1 s segments: a test picture with a tone, and a title.
    static func project(width: Int = 320, height: Int = 180) throws -> URL {
        let clip = try Self.clip(width: width, height: height)
        let folder = MediaFactory.directory.appendingPathComponent("preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let yaml = """
        reel: 1
        vars:
          title: { type: string, default: Hello }
        output: { size: [\(width), \(height)], fps: 30, segment: 1s }
        media: { clip: \(clip) }
        video:
          - clips:
              - media: clip
        overlays:
          - text: "{{ title }}"
            style: { font: DejaVu Sans, size: 24, color: "#ffffff" }
        """
        try yaml.write(to: folder.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    static func clip(width: Int = 320, height: Int = 180) throws -> String {
        try MediaFactory.file(width == 320 ? "preview-clip.mp4" : "preview-clip-\(width).mp4",
                              ["-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=30:d=3", "-f", "lavfi",
                               "-i", "sine=f=440:r=48000:d=3", "-c:v", "libx264", "-c:a", "aac", "-shortest"])
    }

    static let json = ["Content-Type: application/json"]

    @Test func pathsFromTheURLNeverReachTheFileSystem() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        for path in ["/../project.yaml", "/%2e%2e/project.yaml", "/%2E%2E%2Fproject.yaml", "/..%2fproject.yaml",
                     "/frame/1/..%2f..%2fproject.yaml", "/piece/%2fetc%2fpasswd", "/piece/..%2F..%2Fetc%2Fpasswd.mp4",
                     "//etc/passwd", "/etc/passwd", "/project.yaml", "/preview.js/../../etc/passwd",
                     "/timeline/1/../../../etc/passwd", "/frame/1/%2e%2e%2fx.png", "/./preview.js", "/preview.js%00.png",
                     "/" + String(repeating: "../", count: 20) + "etc/passwd"] {
            let response = try server.request(path)
            #expect(response.status == 404, "\(path): \(response.status)")
            #expect(!response.body.contains("root:"), "\(path)")
        }
        #expect(try server.request("/preview.js").status == 200)
    }

    @Test func aHostOtherThanTheBoundAddressIsRefused() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        #expect(try server.request("/", host: "127.0.0.1:\(server.port)").status == 200)
        #expect(try server.request("/", host: "localhost:\(server.port)").status == 200)
        for host in ["evil.example:\(server.port)", "evil.example", "127.0.0.1:\(server.port + 1)", "127.0.0.1", "localhost.evil.example:\(server.port)",
                     "10.0.0.5:\(server.port)", ""] {
            let response = try server.request("/api/state", host: host)
            #expect(response.status == 421, "Host: \(host) got \(response.status)")
            #expect(!response.body.contains("segments"))
        }
        // No Host at all: HTTP/1.1 requires one; refused either by the HTTP parser (400) or by the guard (421).
        let missing = try server.request("/", host: .some(nil))
        #expect(missing.status == 400 || missing.status == 421, "\(missing.status)")
        #expect(!missing.body.contains("<!DOCTYPE"))
        // A page of another site may not set vars.
        let post = try server.request("/api/vars", method: "POST", headers: ["Origin: http://evil.example", "Content-Type: application/json"],
                                      body: "{\"title\":\"pwned\"}")
        #expect(post.status == 403)
    }

    @Test func unknownRoutesFramesAndSegmentsAre404() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        let state = try server.state()
        let frames = try #require(state["frames"] as? Int)
        #expect(frames == 90)
        for path in ["/nothing", "/api", "/api/nothing", "/frame/1/\(frames).png", "/frame/1/-1.png", "/frame/1/01.png", "/frame/99/0.png",
                     "/frame/1/0.jpg", "/piece/" + String(repeating: "0", count: 64) + ".mp4", "/piece/abc.mp4",
                     "/piece/" + String(repeating: "A", count: 64) + ".mp4", "/timeline/2"] {
            #expect(try server.request(path).status == 404, "\(path)")
        }
        let segments = try #require(state["segments"] as? [[String: Any]])
        #expect(segments.count == 2, "3 s in pieces of 2 s (the preview's own length, not output.segment)")
        let key = try #require(segments[1]["key"] as? String)
        let piece = try server.request("/piece/\(key).mp4")
        #expect(piece.status == 200)
        #expect(piece.headers.contains("content-type: video/mp4"))
        #expect(try server.request("/frame/1/\(frames - 1).png").status == 200)
    }

    @Test func twoPagesAtOnce() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        let state = try server.state()
        let version = try #require(state["version"] as? Int)
        let keys = try #require(state["segments"] as? [[String: Any]]).compactMap { $0["key"] as? String }
        // Two pages, each asking for the page, the state, a frame and a piece, at the same time.
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { page in
            do {
                let statuses = try ["/", "/api/state?after=\(version - 1)", "/frame/1/\(15 + page).png", "/piece/\(keys[page]).mp4"].map {
                    try server.request($0, timeout: 60).status
                }
                results.add(statuses)
            } catch {
                results.add([-1])
            }
        }
        #expect(results.all == Array(repeating: 200, count: 8))
        // A change reaches a page that waits for it.
        let changed = try server.request("/api/vars", method: "POST", headers: ["Content-Type: application/json", "Origin: http://127.0.0.1:\(server.port)"],
                                         body: "{\"title\":\"Bye\"}")
        #expect(changed.status == 204)
        let next = try server.request("/api/state?after=\(version)", timeout: 30)
        #expect(next.body.contains("\"value\":\"Bye\""))
    }

    /// A page of another site may not make the server do anything: a browser says where a
    /// request comes from in `Sec-Fetch-Site` (another port of this machine is `same-site`).
    @Test func pagesOfOtherSitesGetNothing() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        let segments = try #require(try server.state()["segments"] as? [[String: Any]])
        let key = try #require(segments.first?["key"] as? String)
        for site in ["cross-site", "same-site"] {
            for path in ["/", "/api/state", "/frame/1/0.png", "/piece/\(key).mp4", "/timeline/1", "/preview.js"] {
                let response = try server.request(path, headers: ["Sec-Fetch-Site: \(site)"])
                #expect(response.status == 403, "\(site) \(path): \(response.status)")
                #expect(response.body.contains("requests from pages of other sites are refused"), "\(response.body)")
            }
        }
        // A link to the page opens it (what the page then asks is same-origin); nothing else.
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]
        #expect(try server.request("/", headers: navigation).status == 200)
        #expect(try server.request("/frame/1/0.png", headers: navigation).status == 403)
        #expect(try server.request("/", headers: ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: iframe"]).status == 403)
        for headers in [["Sec-Fetch-Site: same-origin"], ["Sec-Fetch-Site: none"], []] {
            #expect(try server.request("/frame/1/0.png", headers: headers).status == 200, "\(headers)")
        }
    }

    /// A form of another site can POST text/plain without asking (and older browsers send no
    /// Origin): a change must be JSON, which a page can send to another site only after asking.
    @Test func aChangeMustBeJSON() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        let version = try #require(try server.state()["version"] as? Int)
        for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
            let response = try server.request("/api/vars", method: "POST", headers: type.map { ["Content-Type: \($0)"] } ?? [],
                                              body: "{\"title\":\"pwned\"}")
            #expect(response.status == 415, "\(type ?? "no type"): \(response.status)")
            #expect(response.body.contains("send the body as JSON"), "\(response.body)")
        }
        // A change that sets nothing, sent after them, loads the project again: the page's vars
        // are then shown as they were, which a refused change would have altered.
        #expect(try server.request("/api/vars", method: "POST", headers: Self.json, body: "{}").status == 204)
        let reloaded = try server.state(after: version)
        let reloadedVersion = try #require(reloaded["version"] as? Int)
        let vars = try #require(reloaded["vars"] as? [[String: Any]])
        #expect(vars.map { [$0["name"] as? String, $0["value"] as? String] } == [["title", "Hello"]], "\(vars)")
        // A client that is not a browser (no Origin) may send JSON.
        let json = try server.request("/api/vars", method: "POST", headers: ["Content-Type: application/json; charset=utf-8"], body: "{\"title\":\"Bye\"}")
        #expect(json.status == 204)
        #expect(try server.request("/api/state?after=\(reloadedVersion)", timeout: 30).body.contains("\"value\":\"Bye\""))
    }

    /// A request head that never ends is cut after 10 s, and at most 64 connections are served
    /// at once (Connections); the others wait in the kernel's queue and are served later.
    @Test func halfSentRequestsAreClosedAndConnectionsAreCapped() throws {
        let server = try PreviewProcess(project: try Self.project())
        defer { server.stop() }
        let cap = 64
        let opened = Date()
        let connections = try (0..<cap + 16).map { _ in
            let fd = try server.connect(timeout: 30)
            PreviewProcess.send(fd, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n") // the head never ends
            return fd
        }
        defer { connections.forEach { close($0) } }
        let first = PreviewProcess.receive(connections[0])
        let waited = Date().timeIntervalSince(opened)
        #expect(first.closed && first.bytes.isEmpty, "the half-sent request was not closed in \(waited) s")
        #expect(waited > 9, "closed after \(waited) s, before the 10 s a request head may take")
        // After those 10 s of the others waiting: the listening socket, the cap, and at most the
        // 4 that NIO accepts in one go before it stops.
        #expect(server.openSockets <= 1 + cap + 4, "\(server.openSockets) sockets")
        #expect(try server.request("/preview.js", timeout: 30).status == 200)
    }

    /// A still whose client has left is not made, nor one that newer asks superseded: before,
    /// 199 abandoned asks made the next frame wait 15 s. Counted in the server's CPU time.
    @Test func stillsNobodyWaitsForAreNotMade() throws {
        let server = try PreviewProcess(project: try Self.project(width: 1280, height: 720))
        defer { server.stop() }
        let keys = try #require(try server.state()["segments"] as? [[String: Any]]).compactMap { $0["key"] as? String }
        for key in keys { #expect(try server.request("/piece/\(key).mp4", timeout: 60).status == 200) } // the background work done
        let start = server.cpuSeconds
        for n in [10, 40, 70] { #expect(try server.request("/frame/1/\(n).png", timeout: 60).status == 200) }
        let perStill = (server.cpuSeconds - start) / 3
        let idle = server.openSockets
        let abandoned = server.cpuSeconds
        for n in 0..<80 where ![10, 40, 70].contains(n) {
            let fd = try server.connect()
            PreviewProcess.send(fd, "GET /frame/1/\(n).png HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            close(fd)
        }
        // The server closes each connection its client left; before, it kept them until answered.
        let deadline = Date() + 10
        while server.openSockets > idle, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try server.request("/frame/1/89.png", timeout: 60).status == 200)
        let spent = server.cpuSeconds - abandoned
        #expect(spent < perStill * 10, "77 abandoned stills and one more took \(spent) s of CPU; one still takes \(perStill) s")
        // 20 asks at once, their clients waiting: the oldest give way to the newest (503).
        let asks = try (0..<20).map { i in
            let fd = try server.connect(timeout: 60)
            PreviewProcess.send(fd, "GET /frame/1/\(i).png HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
            return fd
        }
        let statuses = asks.map { fd in
            defer { close(fd) }
            return Int(String(decoding: PreviewProcess.receive(fd).bytes.prefix(12), as: UTF8.self).split(separator: " ").last ?? "") ?? -1
        }
        #expect(statuses.filter { $0 == 503 }.count >= 10, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
    }

    /// A var set on the page and then renamed in the file is forgotten, not "unknown" until a restart.
    @Test func pageValuesOfVarsTheFileNoLongerDeclaresAreForgotten() throws {
        let folder = try Self.project()
        let server = try PreviewProcess(project: folder)
        defer { server.stop() }
        let version = try #require(try server.state()["version"] as? Int)
        #expect(try server.request("/api/vars", method: "POST", headers: Self.json, body: "{\"title\":\"Bye\"}").status == 204)
        let set = try server.state(after: version)
        #expect((set["vars"] as? [[String: Any]])?.first?["value"] as? String == "Bye")
        let file = folder.appendingPathComponent("project.yaml")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "title", with: "headline").write(to: file, atomically: true, encoding: .utf8)
        let renamed = try server.state(after: try #require(set["version"] as? Int))
        #expect(renamed["diagnostics"] == nil, "\(renamed["diagnostics"] ?? "")")
        #expect(renamed["generation"] as? Int == 3)
        let vars = try #require(renamed["vars"] as? [[String: Any]])
        #expect(vars.map { $0["name"] as? String } == ["headline"] && vars.first?["value"] as? String == "Hello")
    }

    /// The page shows the project's warnings as `reel validate` prints them, and drops them
    /// once the file no longer causes them.
    @Test func thePageShowsTheProjectsWarnings() throws {
        let folder = try Self.project()
        let file = folder.appendingPathComponent("project.yaml")
        let valid = try String(contentsOf: file, encoding: .utf8)
        try valid.replacingOccurrences(of: "style: { font: DejaVu Sans, size: 24", with: "style: { font: DejaVu Sans, size: 240")
            .write(to: file, atomically: true, encoding: .utf8)
        let server = try PreviewProcess(project: folder)
        defer { server.stop() }
        let state = try server.state()
        #expect(state["diagnostics"] == nil)
        let warnings = try #require(state["warnings"] as? String)
        #expect(warnings.contains("project.yaml:10:5: warning: this text runs outside the frame (320x180)"), "\(warnings)")
        try valid.write(to: file, atomically: true, encoding: .utf8)
        let fixed = try server.state(after: try #require(state["version"] as? Int))
        #expect(fixed["warnings"] == nil, "\(fixed["warnings"] ?? "")")
    }

    /// Media vars set on the page may name files in the project's folder only (symlinks
    /// resolved), and URLs only of the site of the var's default: the page answers everyone who
    /// reaches the port.
    @Test func pageVarsNameOnlyFilesOfTheProjectsFolder() throws {
        let folder = MediaFactory.directory.appendingPathComponent("preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        let clip = try Self.clip()
        try FileManager.default.copyItem(atPath: clip, toPath: folder.appendingPathComponent("clip.mp4").path)
        try FileManager.default.copyItem(atPath: clip, toPath: folder.appendingPathComponent("more/clip.mp4").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("outside").path,
                                                   withDestinationPath: URL(fileURLWithPath: clip).deletingLastPathComponent().path)
        try """
        reel: 1
        vars:
          picture: { type: path, default: clip.mp4 }
        output: { size: [320, 180], fps: 30 }
        media: { clip: "{{ picture }}" }
        video:
          - clips:
              - media: clip
        """.write(to: folder.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        let server = try PreviewProcess(project: folder)
        defer { server.stop() }
        var version = try #require(try server.state()["version"] as? Int)
        func set(_ picture: String) throws -> [String: Any] {
            #expect(try server.request("/api/vars", method: "POST", headers: Self.json, body: "{\"picture\":\"\(picture)\"}").status == 204)
            let state = try server.state(after: version)
            version = state["version"] as? Int ?? version
            return state
        }
        let name = URL(fileURLWithPath: clip).lastPathComponent
        for picture in ["/etc/passwd", clip, "outside/\(name)", "../\(folder.lastPathComponent)/outside/\(name)", "more/../../x.mp4"] {
            let diagnostics = try set(picture)["diagnostics"] as? String ?? ""
            #expect(diagnostics.contains("var 'picture' set on the page names '\(picture)'") && diagnostics.contains("outside the project's folder"),
                    "\(picture): \(diagnostics)")
            #expect(diagnostics.contains("--set picture="), "\(diagnostics)")
        }
        let url = try set("http://127.0.0.1:9/clip.mp4")["diagnostics"] as? String ?? ""
        #expect(url.contains("names the URL 'http://127.0.0.1:9/clip.mp4'"), "\(url)")
        let inside = try set("more/clip.mp4")
        #expect(inside["diagnostics"] == nil && inside["generation"] as? Int == 2, "\(inside)")
    }

    @Test func aPortInUseIsAClearError() throws {
        let project = try Self.project()
        let server = try PreviewProcess(project: project)
        defer { server.stop() }
        let second = try ReelCommand.run(["preview", project.appendingPathComponent("project.yaml").path, "--port", "\(server.port)"],
                                         environment: ["REEL_CACHE_DIR": project.appendingPathComponent("cache2").path])
        #expect(second.status == 69)
        #expect(second.standardError.contains("port \(server.port)"), "\(second.standardError)")
        #expect(second.standardError.contains("in use"))
    }

    @Test func remoteHostsNeedAFlag() throws {
        let project = try Self.project().appendingPathComponent("project.yaml").path
        let refused = try ReelCommand.run(["preview", project, "--host", "0.0.0.0"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--allow-remote"))
        // A name is judged by what it resolves to, not by starting with "127.": 127.lan is a
        // DNS name (none here), 127.1 is 127.0.0.1.
        let named = try ReelCommand.run(["preview", project, "--host", "127.lan"])
        #expect(named.status == 64)
        #expect(named.standardError.contains("--host 127.lan does not resolve to an address"), "\(named.standardError)")
    }

    @Test func aHostIsLoopbackWhenEveryAddressItResolvesToIs() {
        #expect(ListenAddress.isLoopbackOnly("127.0.0.2") == true && ListenAddress.isLoopbackOnly("::1") == true)
        #expect(ListenAddress.isLoopbackOnly("127.1") == true && ListenAddress.isLoopbackOnly("localhost") == true)
        #expect(ListenAddress.isLoopbackOnly("0.0.0.0") == false && ListenAddress.isLoopbackOnly("10.127.0.1") == false)
        #expect(ListenAddress.isLoopbackOnly("127.lan") == nil)
        #expect(ListenAddress.resolve("127.1") == ["127.0.0.1"])
    }

    @Test func ctrlCStopsCleanlyWithoutTemporaryFiles() throws {
        let project = try Self.project()
        let server = try PreviewProcess(project: project)
        let keys = try #require(try server.state()["segments"] as? [[String: Any]]).compactMap { $0["key"] as? String }
        // Ctrl-C while the last piece is being made.
        let last = try #require(keys.last)
        let pending = Thread { _ = try? server.request("/piece/\(last).mp4", timeout: 30) }
        pending.start()
        Thread.sleep(forTimeInterval: 0.3)
        let status = server.interrupt()
        #expect(status == 0)
        let left = FileManager.default.enumerator(atPath: project.path)?.compactMap { $0 as? String }
            .filter { $0.contains(".partial") || URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".") } ?? []
        #expect(left.isEmpty, "\(left)")
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int] = []
    func add(_ s: [Int]) { lock.withLock { statuses += s } }
    var all: [Int] { lock.withLock { statuses.sorted() } }
}

/// `reel preview PROJECT --port 0` running in the background, its cache in the project's folder.
final class PreviewProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let errors: URL

    init(project: URL) throws {
        process.executableURL = ReelCommand.executable
        process.arguments = ["preview", project.appendingPathComponent("project.yaml").path, "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["REEL_CACHE_DIR": project.appendingPathComponent("cache").path]) { $1 }
        let output = Pipe()
        errors = project.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":")[1]) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no URL from reel preview: \(text) \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")"])
        }
        self.port = port
    }

    struct Response {
        var status: Int
        var headers: String
        var body: String
    }

    /// One HTTP/1.1 request on a new connection, exactly as given.
    func request(_ path: String, method: String = "GET", host: String?? = .none, headers: [String] = [], body: String = "",
                 timeout: Int = 20) throws -> Response {
        let fd = try connect(timeout: timeout)
        defer { close(fd) }
        var lines = ["\(method) \(path) HTTP/1.1"]
        switch host {
        case .none: lines.append("Host: 127.0.0.1:\(port)")
        case .some(.some(let name)): lines.append("Host: \(name)")
        case .some(.none): break
        }
        lines += headers + ["Content-Length: \(body.utf8.count)", "Connection: close", "", body]
        Self.send(fd, lines.joined(separator: "\r\n"))
        let response = String(decoding: Self.receive(fd).bytes, as: UTF8.self)
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
        return Response(status: status, headers: head.lowercased(), body: String(response.dropFirst(head.count)))
    }

    /// A new connection to the server; reads on it wait at most `timeout` seconds.
    func connect(timeout: Int = 20) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// What comes until the server closes the connection (`closed`), or until a read times out.
    static func receive(_ fd: Int32) -> (bytes: [UInt8], closed: Bool) {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (received, n == 0) }
            received += buffer[0..<n]
        }
    }

    /// The sockets the server holds open, its listening one included.
    var openSockets: Int {
        let folder = "/proc/\(process.processIdentifier)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)"))?.hasPrefix("socket:") == true }.count
    }

    /// The CPU time the server has used so far (user and system), in seconds.
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The state once its version is above `after` (the long poll); by default once the
    /// project is loaded (the first load runs after the port opens).
    func state(after: Int = 0) throws -> [String: Any] {
        let response = try request("/api/state?after=\(after)", timeout: 30)
        return try JSONSerialization.jsonObject(with: Data(response.body.trimmingCharacters(in: .whitespacesAndNewlines).utf8)) as? [String: Any] ?? [:]
    }

    /// Ctrl-C; the exit status.
    func interrupt() -> Int32 {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { _ = interrupt() }
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(!log.lowercased().contains("error"), "the server logged: \(log)")
    }
}
