import Foundation
import NetworkPolicy
import TestSupport
import Testing
import Webhooks

/// Deliveries to a real receiver on 127.0.0.1 (`webhook_receiver.py`), so with private
/// networks allowed, but where the refusal is the point.
struct WebhookSenderTests {
    let body = Data(#"{"type":"render.done","render":{"id":"r_1","output":"out/promo.mp4"}}"#.utf8)

    func sender(allowPrivateNetwork: Bool = true, timeout: Duration = .seconds(30)) -> WebhookSender {
        WebhookSender(version: "9.9.9", addressPolicy: AddressPolicy(allowPrivateNetwork: allowPrivateNetwork), timeout: timeout)
    }

    /// The receiver gets a JSON POST whose signature verifies with the secret and the raw body
    /// it got, the delivery's id and Reel's user agent.
    @Test func deliveredSigned() throws {
        let receiver = try WebhookReceiver()
        let result = sender().send(body, to: receiver.url("ok"), deliveryID: "dlv_1", secret: "whsec_test")
        #expect(result == .delivered(status: 200))
        let requests = try receiver.requests()
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == "POST")
        #expect(request.path == "/ok")
        #expect(request.body == body)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["reel-delivery"] == "dlv_1")
        #expect(request.headers["user-agent"] == "reel/9.9.9")
        #expect(request.headers["expect"] == nil)
        let signature = try #require(request.headers["reel-signature"])
        #expect(WebhookSignature.verify(header: signature, secret: "whsec_test", body: request.body) == .valid)
        #expect(WebhookSignature.verify(header: signature, secret: "whsec_other", body: request.body) == .mismatch)
    }

    @Test func serverErrorIsRejected() throws {
        let receiver = try WebhookReceiver()
        #expect(sender().send(body, to: receiver.url("error"), deliveryID: "dlv_2", secret: "s") == .rejected(status: 500))
    }

    @Test func slowReceiverTimesOut() throws {
        let receiver = try WebhookReceiver()
        let started = ContinuousClock.now
        let result = sender(timeout: .seconds(1)).send(body, to: receiver.url("slow"), deliveryID: "dlv_3", secret: "s")
        guard case .failed(.timedOut) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(try receiver.requests().count == 1)
    }

    /// A redirect is the receiver's answer, not a place to post again.
    @Test func redirectNotFollowed() throws {
        let receiver = try WebhookReceiver()
        #expect(sender().send(body, to: receiver.url("redirect"), deliveryID: "dlv_4", secret: "s") == .rejected(status: 302))
        #expect(try receiver.requests().map(\.path) == ["/redirect"])
    }

    /// Without private networks, loopback is refused as curl connects, whether the URL names the
    /// address (in any form, IPv6 forms that carry it included) or a name that resolves to it;
    /// nothing reaches the receiver, which listens on that port. Allowed, the same URL is delivered.
    @Test func privateNetworkRefused() throws {
        let receiver = try WebhookReceiver()
        let hosts: [(String, AddressScope)] = [("127.0.0.1", .loopback), ("localhost", .loopback), ("[::1]", .loopback),
                                               ("[::ffff:127.0.0.1]", .loopback), ("0.0.0.0", .unspecified),
                                               ("[::127.0.0.1]", .loopback), ("[64:ff9b::7f00:1]", .loopback), ("[2002:7f00:1::1]", .loopback),
                                               ("[64:ff9b:1::7f00:1]", .localTranslation)]
        for (host, scope) in hosts {
            let result = sender(allowPrivateNetwork: false).send(body, to: receiver.url("ok", host: host), deliveryID: "dlv_5", secret: "s")
            guard case .failed(.refusedAddress(let refused)) = result else {
                Issue.record("\(host): expected a refusal, got \(result)")
                continue
            }
            #expect(refused.scope == scope, "\(host)")
        }
        #expect(try receiver.requests().isEmpty)
        let refused = sender(allowPrivateNetwork: false).send(body, to: receiver.url("ok"), deliveryID: "dlv_5", secret: "s")
        #expect("\(refused)" == "failed(refused: 127.0.0.1 is a loopback address, not a public one)")
        let embedded = sender(allowPrivateNetwork: false).send(body, to: receiver.url("ok", host: "[::127.0.0.1]"), deliveryID: "dlv_5", secret: "s")
        #expect("\(embedded)" == "failed(refused: ::127.0.0.1 carries the IPv4 address 127.0.0.1 (IPv4-compatible), a loopback address, not a public one)")
        #expect(sender().send(body, to: receiver.url("ok", host: "localhost"), deliveryID: "dlv_5", secret: "s") == .delivered(status: 200))
    }

    /// Only http and https, whatever the policy.
    @Test func otherSchemesRefused() throws {
        let receiver = try WebhookReceiver()
        for url in ["file:///etc/passwd", "ftp://127.0.0.1:\(receiver.port)/ok", "gopher://127.0.0.1:\(receiver.port)/ok"] {
            for allowPrivateNetwork in [false, true] {
                let result = sender(allowPrivateNetwork: allowPrivateNetwork).send(body, to: url, deliveryID: "dlv_6", secret: "s")
                guard case .failed(.unsupportedURL) = result else {
                    Issue.record("\(url): expected an unsupported URL, got \(result)")
                    continue
                }
            }
        }
        #expect(try receiver.requests().isEmpty)
    }
}
