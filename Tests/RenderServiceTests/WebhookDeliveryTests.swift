import Foundation
import Hummingbird
import HummingbirdTesting
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
                          schedule: RetrySchedule(firstDelay: .milliseconds(200), maximumDelay: .seconds(1), attempts: 3, jitter: 0), log: { _ in })
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
            for _ in 0..<100 where requests.count < 2 {
                requests = try receiver.requests()
                try await Task.sleep(for: .milliseconds(50))
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
            try await Task.sleep(for: .milliseconds(200))
            let stored = try await fixture.core.store.deliveries(of: id)
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
            for _ in 0..<100 where stored.first?.status != "failed" {
                stored = try await fixture.core.store.deliveries(of: id)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(stored.count == 1 && stored.first?.status == "failed" && stored.first?.attempts == 1, "\(stored)")
            #expect(stored.first?.body.contains("\"type\":\"render.cancelled\"") == true)
            #expect(try receiver.requests().isEmpty, "nothing reached 127.0.0.1")
        }
    }
}
