import Foundation
import NetworkPolicy
import NIOPosix
import ReelVersion
import ServiceLifecycle
import Webhooks

/// The service that delivers the stored webhook messages as they fall due: one signed POST per
/// attempt; a non-2xx answer or no answer is tried again on `schedule` (about an hour in all),
/// an address the policy refuses or a URL that is not http(s) is given up at once. It ends on
/// the service group's graceful shutdown after the attempt under way (at most its timeout);
/// what is still due waits in the database for the next start.
final class WebhookDeliveries: Service {
    private let store: RenderStore
    private let sender: WebhookSender
    private let schedule: RetrySchedule
    private let log: @Sendable (String) -> Void
    /// libcurl's transfer blocks: it runs here, not on the concurrency pool.
    private let thread = NIOThreadPool(numberOfThreads: 1)

    init(store: RenderStore, policy: AddressPolicy, schedule: RetrySchedule = RetrySchedule(), log: @escaping @Sendable (String) -> Void) {
        self.store = store
        sender = WebhookSender(version: ReelVersion.current, addressPolicy: policy)
        self.schedule = schedule
        self.log = log
    }

    /// How long a delivery taken from the database is held for this node: its attempt fits in
    /// it, so no other node attempts it meanwhile; if this node dies, it is due again that soon.
    /// One is taken at a time, so a node that dies holds at most one.
    private var hold: TimeInterval { Self.seconds(sender.timeout + sender.connectTimeout) + 10 }

    func run() async throws {
        thread.start()
        defer { thread.shutdownGracefully { _ in } }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let due = (try? await store.claimDueDeliveries(hold: hold, limit: 1)) ?? []
            for delivery in due { await attempt(delivery) }
            if due.isEmpty { try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(250)) } }
        }
    }

    private func attempt(_ delivery: Delivery) async {
        var delivery = delivery
        let (sender, request) = (sender, delivery)
        let result = await (try? thread.runIfActive {
            sender.send(Data(request.body.utf8), to: request.url, deliveryID: request.id, secret: request.secret)
        }) ?? .failed(.transport("not attempted: the service was stopping"))
        delivery.attempts += 1
        switch result {
        case .delivered(let status):
            delivery.status = "delivered"
            delivery.nextAt = nil
            delivery.record(String(status))
        case .failed(let failure):
            switch failure {
            case .refusedAddress, .unsupportedURL: give(up: &delivery, failure.description)
            case .timedOut, .transport: retry(&delivery, failure.description)
            }
        case .rejected(let status):
            retry(&delivery, String(status))
        }
        do {
            try await store.update(delivery)
        } catch {
            log("\(delivery.id): cannot record the attempt (\(error)); it will be made again")
        }
    }

    private func retry(_ delivery: inout Delivery, _ result: String) {
        delivery.record(result)
        guard let wait = schedule.nextAttempt(after: delivery.attempts, deliveryID: delivery.id) else {
            return give(up: &delivery, result)
        }
        delivery.nextAt = Date().timeIntervalSince1970 + Self.seconds(wait)
    }

    private func give(up delivery: inout Delivery, _ result: String) {
        delivery.status = "failed"
        delivery.nextAt = nil
        delivery.record(result)
        log("webhook \(delivery.id) to \(delivery.shownURL) given up after \(delivery.attempts) attempt\(delivery.attempts == 1 ? "" : "s"): \(delivery.lastResult ?? "")")
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
