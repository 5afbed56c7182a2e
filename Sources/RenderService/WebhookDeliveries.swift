import Foundation
import NetworkPolicy
import RenderEngine
import Synchronization
import Webhooks

/// The thread that delivers the stored webhook messages as they fall due: one signed POST per
/// attempt; a non-2xx answer or no answer is tried again on `schedule` (about an hour in all),
/// an address the policy refuses or a URL that is not http(s) is given up at once.
final class WebhookDeliveries: Sendable {
    private let store: RenderStore
    private let sender: WebhookSender
    private let schedule: RetrySchedule
    private let log: @Sendable (String) -> Void
    private let state = Mutex((stopping: false, running: false))

    init(store: RenderStore, policy: AddressPolicy, schedule: RetrySchedule = RetrySchedule(), log: @escaping @Sendable (String) -> Void) {
        self.store = store
        sender = WebhookSender(version: ExportSession.version, addressPolicy: policy)
        self.schedule = schedule
        self.log = log
    }

    /// How long a delivery taken from the database is held for this node: its attempt fits in
    /// it, so no other node attempts it meanwhile; if this node dies, it is due again that soon.
    /// One is taken at a time, so a node that dies holds at most one.
    private var hold: TimeInterval { Self.seconds(sender.timeout + sender.connectTimeout) + 10 }

    func start() {
        state.withLock { $0.running = true }
        Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                let due = (try? store.claimDueDeliveries(hold: hold, limit: 1)) ?? []
                for delivery in due where !state.withLock({ $0.stopping }) { attempt(delivery) }
                if due.isEmpty { Thread.sleep(forTimeInterval: 0.25) }
            }
            state.withLock { $0.running = false }
        }.start()
    }

    /// Waits for the attempt under way (at most its timeout); what is still due waits in the
    /// database for the next start.
    func stop() {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) { Thread.sleep(forTimeInterval: 0.05) }
    }

    private func attempt(_ delivery: Delivery) {
        var delivery = delivery
        let result = sender.send(Data(delivery.body.utf8), to: delivery.url, deliveryID: delivery.id, secret: delivery.secret)
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
            try store.update(delivery)
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
