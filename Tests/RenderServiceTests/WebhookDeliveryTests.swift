import Foundation
import Hummingbird
import HTTPTesting
import NetworkPolicy
@testable import RenderService
import TestSupport
import Testing
import Webhooks

/// A render's end told to its webhook: stored with the render, signed, retried after a failure
/// with the same delivery id, given up at once for an address the policy refuses.
@Suite(.serialized) struct WebhookDeliveryTests {
    static let secret = "whsec_0123456789abcdef"

    static func body(webhook url: String) -> String {
        ServiceAPITests.body(extra: #", "webhook": {"url": "\#(url)", "secret": "\#(secret)"}"#)
    }

    static func deliveries(_ fixture: ServiceAPITests.Fixture, allowPrivateNetwork: Bool) -> WebhookDeliveries {
        WebhookDeliveries(store: fixture.core.store, policy: AddressPolicy(allowPrivateNetwork: allowPrivateNetwork),
                          schedule: RetrySchedule(firstDelay: .milliseconds(200), maximumDelay: .seconds(1), attempts: 3, jitter: 0), log: fixture.log.append)
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func aDoneRenderIsToldSignedAndRetriedUntilTheReceiverTakesIt(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let receiver = try WebhookReceiver()
        let deliveries = Self.deliveries(fixture, allowPrivateNetwork: true)
        try await whileRunning(deliveries) { try await whileRunning(fixture.workers) {
            let flaky = receiver.url("flaky")
            try await fixture.test { client in
                let posted = try await client.execute(uri: "/v1/renders", method: .post, headers: ServiceAPITests.auth(fixture.alice),
                                                      body: ByteBuffer(string: Self.body(webhook: flaky))) { try ServiceAPITests.object($0) }
                let id = try #require(posted["id"] as? String)
                #expect(try await ServiceAPITests.finished(client, id, token: fixture.alice)["status"] as? String == "done")
            }
            let id = try #require(try await fixture.core.store.renders(token: "alice", status: .done, limit: 1, after: nil).first?.id)
            var requests: [WebhookReceiver.Request] = []
            // Up to a minute: retries keep their schedule however loaded the machine is.
            _ = try await RenderChildTests.eventually(60) {
                requests = try receiver.requests()
                return requests.count >= 2
            }
            #expect(requests.count == 2, "the 500 was followed by a second attempt")
            #expect(Set(requests.map { $0.headers["reel-delivery"] ?? "" }).count == 1, "one delivery id for every attempt")
            let last = try #require(requests.last)
            let signature = try #require(last.headers["reel-signature"])
            #expect(WebhookSignature.verify(header: signature, secret: Self.secret, body: [UInt8](last.body)) == .valid)
            let message = try #require(try JSONSerialization.jsonObject(with: last.body) as? [String: Any])
            #expect(message["type"] as? String == "render.done")
            #expect((message["render"] as? [String: Any])?["id"] as? String == id)
            #expect(((message["render"] as? [String: Any])?["output"] as? [String: Any])?["sha256"] != nil)
            // The receiver has answered; the delivery is recorded as delivered right after.
            var stored = try await fixture.core.store.deliveries(of: id)
            for _ in 0..<200 where stored.map(\.status) != ["delivered"] {
                try await Task.sleep(for: .milliseconds(50))
                stored = try await fixture.core.store.deliveries(of: id)
            }
            #expect(stored.map(\.status) == ["delivered"] && stored.first?.attempts == 2, "\(stored)")
            #expect(try await fixture.core.metrics().contains("reel_webhook_attempts_total{delivery=\"delivered\"} 2\n"))
        } }
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func aCancelledRenderIsToldButNotToAPrivateAddressUnlessAllowed(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let receiver = try WebhookReceiver()
        let deliveries = Self.deliveries(fixture, allowPrivateNetwork: false)
        try await whileRunning(deliveries) {
            let ok = receiver.url("ok")
            let id = try await fixture.test { client in
                let posted = try await client.execute(uri: "/v1/renders", method: .post, headers: ServiceAPITests.auth(fixture.alice),
                                                      body: ByteBuffer(string: Self.body(webhook: ok))) { try ServiceAPITests.object($0) }
                let id = try #require(posted["id"] as? String)
                try await client.execute(uri: "/v1/renders/\(id)", method: .delete, headers: ServiceAPITests.auth(fixture.alice)) { _ in }
                return id
            }
            var stored: [Delivery] = []
            _ = try await RenderChildTests.eventually(60) {
                stored = try await fixture.core.store.deliveries(of: id)
                return stored.first?.status == "failed"
            }
            #expect(stored.count == 1 && stored.first?.status == "failed" && stored.first?.attempts == 1, "\(stored)")
            #expect(stored.first?.body.contains("\"type\":\"render.cancelled\"") == true)
            #expect(try receiver.requests().isEmpty, "nothing reached 127.0.0.1")
        }
    }

    /// A webhook URL naming an IPv6 form that carries a loopback address (IPv4-compatible,
    /// NAT64, 6to4) or the local-use NAT64 prefix is refused as curl connects, though a receiver
    /// listens on the port: given up at once, its result saying it was refused and why.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aWebhookToAnIPv6FormOfLoopbackIsRefused(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let receiver = try WebhookReceiver()
        let deliveries = Self.deliveries(fixture, allowPrivateNetwork: false)
        let expected = ["[::127.0.0.1]": "::127.0.0.1 carries the IPv4 address 127.0.0.1 (IPv4-compatible), a loopback address",
                        "[64:ff9b::7f00:1]": "64:ff9b::7f00:1 carries the IPv4 address 127.0.0.1 (NAT64), a loopback address",
                        "[2002:7f00:1::1]": "2002:7f00:1::1 carries the IPv4 address 127.0.0.1 (6to4), a loopback address",
                        "[64:ff9b:1::7f00:1]": "64:ff9b:1::7f00:1 is in the local-use NAT64 prefix 64:ff9b:1::/48"]
        let urls = expected.keys.map { ($0, receiver.url("ok", host: $0)) }
        try await whileRunning(deliveries) {
            let ids = try await fixture.test { client in
                var ids: [String: String] = [:]
                for (host, url) in urls {
                    let posted = try await client.execute(uri: "/v1/renders", method: .post, headers: ServiceAPITests.auth(fixture.alice),
                                                          body: ByteBuffer(string: Self.body(webhook: url))) { try ServiceAPITests.object($0) }
                    let id = try #require(posted["id"] as? String)
                    try await client.execute(uri: "/v1/renders/\(id)", method: .delete, headers: ServiceAPITests.auth(fixture.alice)) { _ in }
                    ids[host] = id
                }
                return ids
            }
            for (host, id) in ids {
                var stored: [Delivery] = []
                _ = try await RenderChildTests.eventually(60) {
                    stored = try await fixture.core.store.deliveries(of: id)
                    return stored.first?.status == "failed"
                }
                #expect(stored.first?.status == "failed" && stored.first?.attempts == 1, "\(host): \(stored)")
                #expect(stored.first?.lastResult?.hasPrefix("refused: " + expected[host]!) == true, "\(host): \(stored.first?.lastResult ?? "")")
            }
            #expect(try receiver.requests().isEmpty, "nothing reached the receiver")
        }
    }

    /// Credentials in a webhook URL are sent to the receiver (as Basic authentication) and
    /// shown nowhere: not in the service's log lines (the given-up line shows `***@`), not in
    /// the delivery's last result, not in the render's JSON.
    @Test(arguments: RenderStoreTests.Backend.available)
    func credentialsInAWebhookURLAreNeverLoggedNorShown(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let receiver = try WebhookReceiver()
        let deliveries = Self.deliveries(fixture, allowPrivateNetwork: true)
        let url = "http://hook-user:s3cret-Pw@127.0.0.1:\(receiver.port)/error"
        try await whileRunning(deliveries) {
            let (id, shown) = try await fixture.test { client in
                let posted = try await client.execute(uri: "/v1/renders", method: .post, headers: ServiceAPITests.auth(fixture.alice),
                                                      body: ByteBuffer(string: Self.body(webhook: url))) { try ServiceAPITests.object($0) }
                let id = try #require(posted["id"] as? String)
                try await client.execute(uri: "/v1/renders/\(id)", method: .delete, headers: ServiceAPITests.auth(fixture.alice)) { _ in }
                // Three attempts with their waits between: up to a minute on a loaded machine.
                _ = try await RenderChildTests.eventually(60) { try await fixture.core.store.deliveries(of: id).first?.status == "failed" }
                let shown = try await client.execute(uri: "/v1/renders/\(id)", method: .get, headers: ServiceAPITests.auth(fixture.alice)) { String(buffer: $0.body) }
                return (id, shown)
            }
            let stored = try await fixture.core.store.deliveries(of: id)
            #expect(stored.first?.status == "failed" && stored.first?.attempts == 3, "\(stored)")
            let requests = try receiver.requests()
            #expect(requests.count == 3 && requests.allSatisfy { $0.headers["authorization"] == "Basic " + Data("hook-user:s3cret-Pw".utf8).base64EncodedString() },
                    "the credentials reach the receiver")
            let lines = fixture.log.all
            #expect(lines.contains { $0.contains("to http://***@127.0.0.1:\(receiver.port)/error given up after 3 attempts: 500") }, "\(lines)")
            for text in lines + [stored.first?.lastResult ?? "", shown] {
                #expect(!text.contains("s3cret-Pw") && !text.contains("hook-user"), "\(text)")
            }
        }
    }
}
