import Digest
import Foundation
import Testing
import Webhooks

struct WebhookSignatureTests {
    let body = Array(#"{"type":"render.done","render":{"id":"r_1"}}"#.utf8)
    let sent = Date(timeIntervalSince1970: 1_700_000_000)

    func verify(_ header: String, secret: String = "whsec_test", body: [UInt8]? = nil, after seconds: Double = 0) -> WebhookSignature.Verification {
        WebhookSignature.verify(header: header, secret: secret, body: body ?? self.body, now: sent.addingTimeInterval(seconds))
    }

    /// The header's `v1` is Python's `hmac.new(secret, b"<t>." + body, sha256).hexdigest()`.
    @Test func header() {
        #expect(WebhookSignature.header(secret: "whsec_test", timestamp: sent.addingTimeInterval(0.9), body: body)
            == "t=1700000000,v1=7ca7939bd1dd65d571f4fb4f077cd4de3f2b1d484a7d73698cb1cf7a71cabd71")
        #expect(WebhookSignature.header(secrets: ["whsec_test", "whsec_old"], timestamp: sent, body: body)
            == "t=1700000000,v1=7ca7939bd1dd65d571f4fb4f077cd4de3f2b1d484a7d73698cb1cf7a71cabd71,"
            + "v1=950206ee01e5e785efdfde5910e7056a54867a48532abc471a92ace9bf2042ff")
    }

    @Test func tolerance() {
        let header = WebhookSignature.header(secret: "whsec_test", timestamp: sent, body: body)
        #expect(verify(header) == .valid)
        #expect(verify(header, after: 300) == .valid)
        #expect(verify(header, after: -300) == .valid)
        #expect(verify(header, after: 301) == .tooOld)
        #expect(verify(header, after: -301) == .inTheFuture)
        #expect(WebhookSignature.verify(header: header, secret: "whsec_test", body: body, now: sent.addingTimeInterval(3600),
                                        tolerance: .seconds(3600)) == .valid)
    }

    /// Another secret, a changed byte or the same JSON written again do not verify.
    @Test func mismatch() {
        let header = WebhookSignature.header(secret: "whsec_test", timestamp: sent, body: body)
        #expect(verify(header, secret: "whsec_other") == .mismatch)
        #expect(verify(header, body: Array(#"{"type":"render.fail","render":{"id":"r_1"}}"#.utf8)) == .mismatch)
        #expect(verify(header, body: Array(#"{"type": "render.done", "render": {"id": "r_1"}}"#.utf8)) == .mismatch)
        #expect(verify("t=1700000000,v1=7ca7") == .mismatch)
        #expect(verify("t=1700000001,v1=7ca7939bd1dd65d571f4fb4f077cd4de3f2b1d484a7d73698cb1cf7a71cabd71") == .mismatch)
    }

    /// While a secret is rotated, one `v1` for each: either secret verifies; unknown fields
    /// and spaces around fields are ignored.
    @Test func rotation() {
        let header = WebhookSignature.header(secrets: ["whsec_new", "whsec_test"], timestamp: sent, body: body)
        #expect(verify(header, secret: "whsec_new") == .valid)
        #expect(verify(header, secret: "whsec_test") == .valid)
        #expect(verify(header, secret: "whsec_third") == .mismatch)
        #expect(verify(" v0=abc , " + header.replacingOccurrences(of: ",", with: " , ") + ",x=1") == .valid)
    }

    /// The `t` that was signed is the text sent, leading zeros and all.
    @Test func timestampAsSent() {
        var hmac = HMACSHA256(key: Array("whsec_test".utf8))
        hmac.update("01700000000.")
        hmac.update(body)
        #expect(verify("t=01700000000,v1=" + hmac.hexCode()) == .valid)
    }

    @Test func malformed() {
        let v1 = "v1=7ca7939bd1dd65d571f4fb4f077cd4de3f2b1d484a7d73698cb1cf7a71cabd71"
        #expect(verify("") == .malformedHeader)
        #expect(verify("garbage") == .malformedHeader)
        #expect(verify("t=1700000000;" + v1) == .malformedHeader)
        #expect(verify("t=1700000000,,\(v1)") == .malformedHeader)
        #expect(verify("t=abc,\(v1)") == .malformedHeader)
        #expect(verify("t=-5,\(v1)") == .malformedHeader)
        #expect(verify("t=,\(v1)") == .malformedHeader)
        #expect(verify("t=1700000000.5,\(v1)") == .malformedHeader)
        #expect(verify("t=99999999999999999999,\(v1)") == .malformedHeader)
        #expect(verify("t=1700000000,t=1700000000,\(v1)") == .malformedHeader)
        #expect(verify(v1) == .missingTimestamp)
        #expect(verify("t=1700000000") == .missingSignature)
        #expect(verify("t=1700000000,v0=abc") == .missingSignature)
    }
}
