import Foundation
@testable import RenderService
import TestSupport
import Synchronization
import Testing

/// A body over the limit (`ServiceCore.largestBody`) gets its 413 at once, even from a client
/// that writes its whole body before it reads (as Python's urllib does, with
/// `Connection: close`), and the service goes on serving everyone else. No bound on time: a
/// stalled upload fails its write (the client's socket times out), and with the lingering an
/// hour long a connection that ends was ended by its request's end, not by the deadline.
@Suite(.serialized) struct BodyLimitTests {
    enum Framing: CaseIterable { case contentLength, chunked }

    static func anHour(_ configuration: inout ServiceConfiguration) { configuration.lingering = 3600 }

    /// Writes the head and a body of `mebibytes` in 64 KiB blocks (or chunks), then reads the
    /// answer; the answer and whether the server then closed the connection.
    static func upload(_ live: LiveService, _ target: String, method: String = "POST", mebibytes: Int, framing: Framing, closing: Bool,
                       token: String?) async throws -> (answer: RawHTTP.Response, closed: Bool) {
        try await RawHTTP.blocking {
            let connection = try RawHTTP.Connection(port: live.http.port, timeout: 10)
            var head = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
            head += token.map { [LiveService.auth($0)] } ?? []
            head += closing ? ["Connection: close"] : []
            head.append(framing == .chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(mebibytes << 20)")
            try connection.write(Array((head + ["", ""]).joined(separator: "\r\n").utf8))
            let block = [UInt8](repeating: UInt8(ascii: " "), count: 65536)
            let framed = framing == .chunked ? Array("10000\r\n".utf8) + block + Array("\r\n".utf8) : block
            for _ in 0..<(mebibytes * 16) { try connection.write(framed) }
            if framing == .chunked { try connection.write(Array("0\r\n\r\n".utf8)) }
            let answer = try connection.response()
            return (answer, try connection.closes(within: 30))
        }
    }

    @Test func aBodyOverTheLimitIsAnswered413AtOnceAndTheServiceServesOn() async throws {
        try await LiveService.with(.sqlite, configure: Self.anHour) { live in
            for target in ["/v1/renders", "/v1/validate"] {
                for mebibytes in [10, 20] {
                    for framing in Framing.allCases {
                        for closing in [true, false] {
                            let said = "\(target) \(mebibytes) MiB \(framing)\(closing ? " Connection: close" : "")"
                            let (answer, closed) = try await Self.upload(live, target, mebibytes: mebibytes, framing: framing, closing: closing,
                                                                                  token: live.alice)
                            #expect(answer.status == 413, "\(said): \(answer.status) \(answer.text)")
                            #expect(answer.object?["error"] != nil, "\(said): \(answer.text)")
                            // The rest of the body is not read as a next request: the connection ends.
                            #expect(answer.header("Connection") == "close" && closed, "\(said)")
                            #expect(try await live.http.request("GET", "/healthz").status == 200, "after \(said)")
                        }
                    }
                }
            }
            // Any answer given before the body was read ends the same way: without a token,
            // to a template that is not there, with a refused path.
            for (method, target, token) in [("POST", "/v1/renders", nil), ("POST", "/v1/templates/none/renders", live.alice),
                                            ("PUT", "//v1/templates/x", live.alice)] {
                let (answer, closed) = try await Self.upload(live, target, method: method, mebibytes: 20, framing: .contentLength, closing: true,
                                                             token: token)
                #expect([401, 404, 400].contains(answer.status) && closed, "\(method) \(target): \(answer.status), closed: \(closed)")
            }
        }
    }

    /// While clients send bodies far over the limit, slowly or fast, others are answered: the
    /// slow sender, told an hour's lingering, is still sending when all of them are.
    @Test func clientsSendingTooMuchHoldNoOneElseUp() async throws {
        try await LiveService.with(.sqlite, configure: Self.anHour) { (live: LiveService) async throws in // typed: Swift 6.3 took this closure for one that cannot throw
            let slow = SlowSender(port: live.http.port, token: live.alice)
            let sending = Task { try await slow.send() }
            #expect(await slow.answer() == 413)
            let fast = (0..<4).map { _ in
                Task { try await Self.upload(live, "/v1/renders", mebibytes: 20, framing: .chunked, closing: true, token: live.alice) }
            }
            for _ in 0..<20 { #expect(try await live.http.request("GET", "/healthz").status == 200) }
            for upload in fast { #expect(try await upload.value.answer.status == 413) }
            slow.stop()
            #expect(try await sending.value.cutOff == false, "the slow sender was cut off before the others were answered")
        }
    }

    /// A client that goes on sending after its early answer is cut off once the service's
    /// lingering has passed, not before.
    @Test func aClientSendingOnAfterItsAnswerIsCutOffAfterTheLingering() async throws {
        let lingering = 2.0
        try await LiveService.with(.sqlite, configure: { $0.lingering = lingering }) { live in
            let slow = SlowSender(port: live.http.port, token: live.alice)
            let sending = Task { try await slow.send() }
            #expect(await slow.answer() == 413)
            let (cutOff, seconds) = try await sending.value
            #expect(cutOff && seconds >= lingering, "cut off: \(cutOff), after \(seconds) s")
        }
    }
}

/// A client that announces a 100 MiB body, reads its early answer (`answer()`) and then goes on
/// sending 1000 bytes every 0.1 s until the server closes the connection or it is told to stop.
final class SlowSender: Sendable {
    private let answers: AsyncStream<Int>
    private let answered: AsyncStream<Int>.Continuation
    private let stopped = Mutex(false)
    private let port: Int, token: String

    init(port: Int, token: String) {
        (answers, answered) = AsyncStream.makeStream(of: Int.self)
        (self.port, self.token) = (port, token)
    }

    func stop() { stopped.withLock { $0 = true } }

    /// The status of its early answer, once it came (nil if it came to nothing).
    func answer() async -> Int? {
        var statuses = answers.makeAsyncIterator()
        return await statuses.next()
    }

    /// Whether the server cut the connection off (else `stop()` or, against a hang, two minutes
    /// ended it), and the seconds from before its first byte to the end.
    func send() async throws -> (cutOff: Bool, seconds: Double) {
        try await RawHTTP.blocking { [self] in
            defer { answered.finish() } // also when connecting or the answer fails
            let start = Date()
            let connection = try RawHTTP.Connection(port: port, timeout: 30)
            try connection.write(Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\n\(LiveService.auth(token))\r\nContent-Length: \(100 << 20)\r\n\r\n".utf8))
            answered.yield(try connection.response().status)
            while !stopped.withLock({ $0 }) && Date().timeIntervalSince(start) < 120 {
                do { try connection.write([UInt8](repeating: 32, count: 1000)) } catch { return (true, Date().timeIntervalSince(start)) }
                Thread.sleep(forTimeInterval: 0.1) // the pace of a slow client
            }
            return (false, Date().timeIntervalSince(start))
        }
    }
}
