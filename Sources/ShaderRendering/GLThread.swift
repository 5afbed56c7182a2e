import CShaderGL
import Foundation

/// The process's one OpenGL context (Mesa's llvmpipe, `CShaderGL`) and the thread it is
/// current on: every GL call runs there, one at a time, while the caller waits.
final class GLThread: @unchecked Sendable {
    static let shared = GLThread()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    /// Why the context could not be made (nil once it is).
    private(set) var failure: String?

    private var thread: Thread!

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        self.thread = thread
        thread.name = "reel-gl"
        thread.stackSize = 8 << 20
        let opened = DispatchSemaphore(value: 0)
        jobs.append { [unowned self] in
            var reason = [CChar](repeating: 0, count: 512)
            if reel_gl_open(&reason, reason.count) != 0 { self.failure = text(of: reason) }
            opened.signal()
        }
        thread.start()
        opened.wait()
    }

    /// Runs `body` on the GL thread and returns what it returns (at once when called there).
    func run<T>(_ body: @escaping () -> T) -> T {
        if Thread.current === thread { return body() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// The text a C call wrote into `buffer` (up to its terminating zero).
func text(of buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
