import Foundation
import PreviewServer
import TestSupport
import Testing

/// `reel preview` as a user's browser (or an attacker's page) meets it: the built executable
/// on a free port, spoken to over plain sockets so paths and Host headers go out exactly as
/// written. The page itself is tested in Chromium by `Tests/Browser/preview_test.py`.
@Suite(.serialized) struct PreviewCommandTests {
    /// A 3 s project of 1 s segments: a test picture with a tone, and a title.
    static func project() throws -> URL {
        let clip = try MediaFactory.file("preview-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3", "-f", "lavfi",
                                                              "-i", "sine=f=440:r=48000:d=3", "-c:v", "libx264", "-c:a", "aac", "-shortest"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let yaml = """
        reel: 1
        vars:
          title: { type: string, default: Hello }
        output: { size: [320, 180], fps: 30, segment: 1s }
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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var lines = ["\(method) \(path) HTTP/1.1"]
        switch host {
        case .none: lines.append("Host: 127.0.0.1:\(port)")
        case .some(.some(let name)): lines.append("Host: \(name)")
        case .some(.none): break
        }
        lines += headers + ["Content-Length: \(body.utf8.count)", "Connection: close", "", body]
        let text = Array(lines.joined(separator: "\r\n").utf8)
        _ = text.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let response = String(decoding: received, as: UTF8.self)
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
        return Response(status: status, headers: head.lowercased(), body: String(response.dropFirst(head.count)))
    }

    /// The state once the project is loaded (the first load runs after the port opens).
    func state() throws -> [String: Any] {
        let response = try request("/api/state?after=0")
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
