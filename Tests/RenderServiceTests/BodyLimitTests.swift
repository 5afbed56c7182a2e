import Foundation
@testable import RenderService
import TestSupport
import Testing

/// A body over the limit (`ServiceCore.largestBody`) gets its 413 at once, even from a client
/// that writes its whole body before it reads (as Python's urllib does, with
/// `Connection: close`), and the service goes on serving everyone else.
@Suite(.serialized) struct BodyLimitTests {
    enum Framing: CaseIterable { case contentLength, chunked }

    /// Writes the head and a body of `mebibytes` in 64 KiB blocks (or chunks), then reads the
    /// answer; the answer and how long the whole exchange took.
    static func upload(_ live: LiveService, _ target: String, method: String = "POST", mebibytes: Int, framing: Framing, closing: Bool,
                       token: String?) async throws -> (answer: RawHTTP.Response, seconds: Double, closed: Bool) {
        try await RawHTTP.blocking {
            let start = Date()
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
            return (answer, Date().timeIntervalSince(start), try connection.closes(within: 2))
        }
    }

    @Test func aBodyOverTheLimitIsAnswered413AtOnceAndTheServiceServesOn() async throws {
        try await LiveService.with(.sqlite) { live in
            for target in ["/v1/renders", "/v1/validate"] {
                for mebibytes in [10, 20] {
                    for framing in Framing.allCases {
                        for closing in [true, false] {
                            let said = "\(target) \(mebibytes) MiB \(framing)\(closing ? " Connection: close" : "")"
                            let (answer, seconds, closed) = try await Self.upload(live, target, mebibytes: mebibytes, framing: framing, closing: closing,
                                                                                  token: live.alice)
                            #expect(answer.status == 413, "\(said): \(answer.status) \(answer.text)")
                            #expect(answer.object?["error"] != nil, "\(said): \(answer.text)")
                            #expect(seconds < 5, "\(said): \(seconds) s") // the old code stalled the upload for the connection's 10 s
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
                let (answer, seconds, closed) = try await Self.upload(live, target, method: method, mebibytes: 20, framing: .contentLength, closing: true,
                                                                      token: token)
                #expect([401, 404, 400].contains(answer.status) && seconds < 5 && closed, "\(method) \(target): \(answer.status) in \(seconds) s")
            }
        }
    }

    /// While clients send bodies far over the limit, slowly or fast, others are answered (every
    /// health check before the slow sender is cut off); a client that goes on sending after its
    /// answer is cut off after `EarlyAnswers.lingering`.
    @Test func clientsSendingTooMuchHoldNoOneElseUp() async throws {
        try await LiveService.with(.sqlite) { live in
            let port = live.http.port, token = live.alice
            let slow = Task {
                try await RawHTTP.blocking {
                    let connection = try RawHTTP.Connection(port: port, timeout: 30)
                    try connection.write(Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\n\(LiveService.auth(token))\r\nContent-Length: \(100 << 20)\r\n\r\n".utf8))
                    let answer = try connection.response()
                    let start = Date()
                    do {
                        while Date().timeIntervalSince(start) < 30 {
                            try connection.write([UInt8](repeating: 32, count: 1000))
                            Thread.sleep(forTimeInterval: 0.1)
                        }
                    } catch {}
                    return (answer.status, Date().timeIntervalSince(start), Date())
                }
            }
            let fast = (0..<4).map { _ in
                Task { try await Self.upload(live, "/v1/renders", mebibytes: 20, framing: .chunked, closing: true, token: token) }
            }
            for _ in 0..<20 { #expect(try await live.http.request("GET", "/healthz").status == 200) }
            let checked = Date()
            for upload in fast { #expect(try await upload.value.answer.status == 413) }
            let (status, cutOff, slowEnded) = try await slow.value
            #expect(checked < slowEnded, "the health checks were answered only after the slow sender was cut off")
            #expect(status == 413)
            let lingering = Double(EarlyAnswers.lingering.nanoseconds) / 1e9
            #expect(cutOff > lingering - 1 && cutOff < lingering + 2, "cut off after \(cutOff) s")
        }
    }
}
