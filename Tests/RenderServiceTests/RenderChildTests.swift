import AtomicFiles
import Foundation
import Hummingbird
import HTTPTesting
@testable import RenderService
import TestSupport
import Testing

/// Each render runs in a child `reel render` process: a crash fails that render and the node
/// renders the next; a cancel, a lost lease, the service stopping and the service dying each
/// stop the child, which leaves no output behind.
@Suite(.serialized) struct RenderChildTests {
    /// What the workers run instead of `reel` itself: a script that notes each run's process id
    /// in `runs` (one line a run; `exec` keeps the id for `reel`), crashes with SIGSEGV when the
    /// render's vars say "crash", and else is the real `reel`.
    struct Wrapper {
        let program: URL
        let runs: URL

        init() throws {
            let folder = MediaFactory.folder("wrapper-\(UUID().uuidString.prefix(8))")
            (program, runs) = (folder.appendingPathComponent("reel-wrapper"), folder.appendingPathComponent("runs"))
            try """
                #!/bin/sh
                echo $$ >> '\(runs.path)'
                if grep -q '"crash"' vars.json 2>/dev/null; then kill -SEGV $$; fi
                exec '\(ReelCommand.executable.path)' "$@"

                """.write(to: program, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        }

        /// The process ids of the runs so far.
        var pids: [Int32] { ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) } }
    }

    /// A 10 min project at 320x180 (sixty times one 10 s clip), which every test stops mid-render:
    /// long enough that a fast reel is still rendering when a test loaded by other suites looks
    /// (a 60 s one was done before it looked). Its clip is put into `mediaRoot`.
    static func longBody(in mediaRoot: URL) throws -> String {
        let clip = try MediaFactory.file("child-long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=10",
                                                            "-f", "lavfi", "-i", "sine=frequency=330:duration=10", "-shortest"])
        let copy = mediaRoot.appendingPathComponent("long.mp4").path
        if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.copyItem(atPath: clip, toPath: copy) }
        return """
            {"project": {"reel": 1, "output": {"size": [320, 180], "fps": 25},
                         "media": {"clip": "long.mp4"},
                         "video": [{"clips": [\(Array(repeating: #"{"media": "clip", "duration": "10s"}"#, count: 60).joined(separator: ", "))]}],
                         "overlays": [{"text": "long", "duration": "600s"}]}}
            """
    }

    /// Whether process `pid` runs (a zombie, ended but not yet reaped, does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }

    /// True once `condition` holds, false after `seconds`.
    static func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while try await !condition() {
            guard Date() < end else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// The files in the fixture's outputs folder (a render's output or its partial file).
    static func outputs(_ fixture: ServiceAPITests.Fixture) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixture.core.folders.outputs)) ?? ["the outputs folder is missing"]
    }

    /// Posts `body` as alice; the render's id.
    static func post(_ client: LiveClient, _ fixture: ServiceAPITests.Fixture, _ body: String) async throws -> String {
        try await client.execute(uri: "/v1/renders", method: .post, headers: ServiceAPITests.auth(fixture.alice), body: ByteBuffer(string: body)) { response in
            #expect(response.status == .accepted, "\(String(buffer: response.body))")
            return try #require(try ServiceAPITests.object(response)["id"] as? String)
        }
    }

    /// Waits until render `id`'s child has reported progress: it renders.
    static func rendering(_ fixture: ServiceAPITests.Fixture, _ id: String) async throws {
        let started = try await eventually(60) {
            let render = try await fixture.core.store.render(id, token: nil)
            return render?.status == .rendering && (render?.progress ?? 0) > 0
        }
        let render = try await fixture.core.store.render(id, token: nil)
        try #require(started, "render \(id) did not start: \(String(describing: render))")
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func aCrashingRenderFailsAfterOneRetryAndTheNodeRendersTheNext(_ backend: RenderStoreTests.Backend) async throws {
        let wrapper = try Wrapper()
        let fixture = try await ServiceAPITests.Fixture(backend, program: wrapper.program)
        try await whileRunning(fixture.workers) { try await fixture.test { client in
            let crashing = try await Self.post(client, fixture, ServiceAPITests.body(headline: "crash"))
            let crashed = try await ServiceAPITests.finished(client, crashing, token: fixture.alice)
            #expect(crashed["status"] as? String == "failed", "\(crashed)")
            let error = crashed["error"] as? String ?? ""
            #expect(error.hasPrefix("reel render was killed by SIGSEGV; rendered once more, reel render was killed by SIGSEGV"), "\(error)")
            #expect(wrapper.pids.count == 2, "run once, and once more")
            // The same node, the next render: done, with reel render's bytes.
            let next = try await Self.post(client, fixture, ServiceAPITests.body(headline: "After"))
            #expect(try await ServiceAPITests.finished(client, next, token: fixture.alice)["status"] as? String == "done")
            let served = try await client.execute(uri: "/v1/renders/\(next)/output", method: .get, headers: ServiceAPITests.auth(fixture.alice)) {
                Data(buffer: $0.body)
            }
            let project = fixture.mediaRoot.appendingPathComponent("project.json")
            let request = try #require(try JSONSerialization.jsonObject(with: Data(ServiceAPITests.body().utf8)) as? [String: Any])
            try JSONSerialization.data(withJSONObject: request["project"] as Any).write(to: project)
            let cli = try ReelCommand.run(["render", project.path, "--set", "headline=After", "-o", "after.mp4", "--no-cache"], in: fixture.mediaRoot)
            #expect(cli.status == 0, "\(cli.standardError)")
            #expect(try Data(contentsOf: fixture.mediaRoot.appendingPathComponent("after.mp4")) == served)
        } }
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func aCancelStopsTheChildAndLeavesNoOutput(_ backend: RenderStoreTests.Backend) async throws {
        let wrapper = try Wrapper()
        let fixture = try await ServiceAPITests.Fixture(backend, program: wrapper.program)
        try await whileRunning(fixture.workers) { try await fixture.test { client in
            let id = try await Self.post(client, fixture, try Self.longBody(in: fixture.mediaRoot))
            try await Self.rendering(fixture, id)
            let child = try #require(wrapper.pids.first)
            #expect(Self.isRunning(child))
            try await client.execute(uri: "/v1/renders/\(id)", method: .delete, headers: ServiceAPITests.auth(fixture.alice)) { #expect($0.status == .ok) }
            #expect(try await ServiceAPITests.finished(client, id, token: fixture.alice)["status"] as? String == "cancelled")
            #expect(!Self.isRunning(child), "the child is gone")
            #expect(Self.outputs(fixture).isEmpty, "no output and no partial file: \(Self.outputs(fixture))")
        } }
    }

    /// Another node takes the render (as when this node's lease ran out): this node's child
    /// stops, and its result is not recorded.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aLostLeaseStopsTheChild(_ backend: RenderStoreTests.Backend) async throws {
        let wrapper = try Wrapper()
        let fixture = try await ServiceAPITests.Fixture(backend, program: wrapper.program, lease: 4)
        try await whileRunning(fixture.workers) {
            let id = try await fixture.test { client in try await Self.post(client, fixture, try Self.longBody(in: fixture.mediaRoot)) }
            try await Self.rendering(fixture, id)
            let child = try #require(wrapper.pids.first)
            // In a minute this node's lease has run out; there another node takes the render.
            let taken = try await fixture.core.store.claimNext(owner: "other", lease: 600, now: Date().addingTimeInterval(60))
            #expect(taken?.id == id)
            #expect(try await Self.eventually(3) { !Self.isRunning(child) }, "the child was stopped within half the lease")
            let render = try #require(try await fixture.core.store.render(id, token: nil))
            #expect(render.status == .rendering && render.leaseOwner == "other", "\(render)")
            #expect(Self.outputs(fixture).isEmpty, "\(Self.outputs(fixture))")
        }
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func theServiceStoppingStopsItsChildrenAndQueuesTheirRendersAgain(_ backend: RenderStoreTests.Backend) async throws {
        let wrapper = try Wrapper()
        let fixture = try await ServiceAPITests.Fixture(backend, program: wrapper.program)
        let id = try await whileRunning(fixture.workers) {
            let id = try await fixture.test { client in try await Self.post(client, fixture, try Self.longBody(in: fixture.mediaRoot)) }
            try await Self.rendering(fixture, id)
            return id
        }
        // The workers have ended (no grace time): the child is gone, the render queued again.
        let child = try #require(wrapper.pids.first)
        #expect(!Self.isRunning(child))
        let render = try #require(try await fixture.core.store.render(id, token: nil))
        #expect(render.status == .queued && render.leaseOwner == nil && render.error == nil, "\(render)")
        #expect(Self.outputs(fixture).isEmpty, "\(Self.outputs(fixture))")
    }

    /// `reel serve` killed with SIGKILL mid-render: its child notices (its standard input ends)
    /// and stops at once, removing its partial output, so it never writes for a node that is gone.
    @Test func aChildStopsWhenItsServiceIsKilled() async throws {
        let folder = MediaFactory.folder("child-serve-\(UUID().uuidString.prefix(8))")
        let media = folder.appendingPathComponent("media"), data = folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try Self.longBody(in: media).write(toFile: folder.appendingPathComponent("body.json").path, atomically: true, encoding: .utf8)
        let token = try #require(try ReelCommand.run(["serve", "token", "create", "ci", "--data", data]).standardOutput.split(separator: "\n").last)
        let out = folder.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let service = Process()
        service.executableURL = ReelCommand.executable
        service.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0", "--media-root", media.path]
        service.standardOutput = try FileHandle(forWritingTo: out)
        service.standardError = FileHandle.nullDevice
        try service.run()
        defer { if service.isRunning { kill(service.processIdentifier, SIGKILL) } }
        var url: Substring?
        _ = try await Self.eventually(20) {
            url = try String(contentsOf: out, encoding: .utf8).split(separator: " ").first { $0.hasPrefix("http://") }?.split(separator: "\n").first
            return url != nil
        }
        let base = try #require(url)
        let answer = try MediaFactory.run("curl", ["-s", "-H", "Authorization: Bearer \(token)", "--data-binary", "@" + folder.appendingPathComponent("body.json").path,
                                                   "\(base)/v1/renders"])
        let id = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])["id"] as? String
        // Its child: the process whose parent is the service, once the render has progressed.
        var child: Int32?
        let started = try await Self.eventually(60) {
            let shown = try MediaFactory.run("curl", ["-s", "-H", "Authorization: Bearer \(token)", "\(base)/v1/renders/\(id ?? "")"])
            let progress = (try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["progress"] as? Double ?? 0
            child = Self.children(of: service.processIdentifier).first
            return progress > 0 && child != nil
        }
        try #require(started, "the render did not start")
        kill(service.processIdentifier, SIGKILL)
        service.waitUntilExit()
        let pid = try #require(child)
        #expect(try await Self.eventually(5) { !Self.isRunning(pid) }, "the child outlived its service")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: data).appendingPathComponent("outputs").path)
        #expect(outputs.isEmpty, "\(outputs)")
    }

    /// A render that fails in its child (its media removed since it was posted) ends with what
    /// `reel render` says, at the place the media was named in what was posted.
    /// A node that died mid-render leaves its child stopping, holding the output's partial file
    /// (here the test holds it): the node that takes the render over waits for it, renewing the
    /// lease, instead of starting a child that would be refused ("another process is writing
    /// this file now"), and renders once it is let go.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aTakenOverRenderWaitsForTheEarlierChildToLetGoOfItsOutput(_ backend: RenderStoreTests.Backend) async throws {
        let wrapper = try Wrapper()
        let fixture = try await ServiceAPITests.Fixture(backend, program: wrapper.program)
        let id = try await fixture.test { client in try await Self.post(client, fixture, ServiceAPITests.body(headline: "Taken over")) }
        let outputs = fixture.data.appendingPathComponent("outputs")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let held = open(PartialFile.path(for: outputs.appendingPathComponent("\(id).mp4").path), O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        try #require(held >= 0 && flock(held, LOCK_EX) == 0)
        let render = try await whileRunning(fixture.workers) { try await fixture.test { client in
            // The lease renewed twice while the file is held: the worker waits, and no child ran.
            var renewals: Set<Double> = []
            let waiting = try await Self.eventually(20) {
                if let until = try await fixture.core.store.render(id, token: nil)?.leaseUntil { renewals.insert(until) }
                return renewals.count >= 3 || !wrapper.pids.isEmpty
            }
            #expect(waiting && wrapper.pids.isEmpty, "a child started while another process held the output (\(renewals.count) leases seen)")
            close(held)
            let render = try await ServiceAPITests.finished(client, id, token: fixture.alice)
            return (status: render["status"] as? String, error: render["error"] as? String)
        } }
        #expect(render.status == "done", "\(render.error ?? "")")
        #expect(wrapper.pids.count == 1, "one child, once the output was let go")
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func aFailedRenderSaysWhatReelRenderSaidAtItsPlaceInWhatWasPosted(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let body = ServiceAPITests.body(headline: "Gone")
        let id = try await fixture.test { client in try await Self.post(client, fixture, body) }
        try FileManager.default.removeItem(at: fixture.mediaRoot.appendingPathComponent("clip.mp4"))
        let error = try await whileRunning(fixture.workers) { try await fixture.test { client in
            let render = try await ServiceAPITests.finished(client, id, token: fixture.alice)
            #expect(render["status"] as? String == "failed", "\(render)")
            return render["error"] as? String ?? ""
        } }
        let lines = body.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("\"clip.mp4\"") })
        let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: "\"clip.mp4\"")!.lowerBound) + 1
        #expect(error.hasPrefix("request:\(line + 1):\(column): error: media file 'clip' not found"), "\(error)")
    }

    /// The node renders in children, so its own memory does not grow with the renders it makes.
    /// Runs alone in a process of its own, a node in it rendering one render after another, each
    /// posted (and checked) through the API with other vars.
    @Test func theNodesMemoryStaysFlatOverManyRenders() async throws {
        let (warmUp, window) = (10, 20)
        guard let heap = try await Memory.measuredAlone("theNodesMemoryStaysFlatOverManyRenders", {
            let fixture = try await ServiceAPITests.Fixture(.sqlite)
            return try await whileRunning(fixture.workers) { try await fixture.test { client in
                var made = 0
                func render(_ count: Int) async throws {
                    for _ in 0..<count {
                        made += 1
                        let id = try await Self.post(client, fixture, ServiceAPITests.body(headline: "Render \(made)"))
                        #expect(try await ServiceAPITests.finished(client, id, token: fixture.alice)["status"] as? String == "done")
                    }
                }
                return try await HeapWindows.measure(warmUp: { try await render(warmUp) }, window: { try await render(window) })
            } }
        }) else { return }
        try #require(heap.marks.count == 4, "the measuring run reported \(heap.marks)")
        #expect(heap.medianGrowth < 1_000_000, "\(heap), windows of \(window) renders")
        print("service memory: \(heap), windows of \(window) renders after \(warmUp)")
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let candidate = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1, Int32(fields[1]) == pid else { return nil }
            return candidate
        }
    }
}
