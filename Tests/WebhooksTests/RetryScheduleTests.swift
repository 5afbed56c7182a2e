import Testing
import Webhooks

struct RetryScheduleTests {
    func delays(_ id: String, _ schedule: RetrySchedule = RetrySchedule()) -> [Duration] {
        (1...).lazy.map { schedule.nextAttempt(after: $0, deliveryID: id) }.prefix { $0 != nil }.map { $0! }
    }

    /// Without jitter: doubling from 10 s to the 10-minute cap, 11 waits, then given up.
    @Test func doublingToTheCap() {
        let seconds = [10, 20, 40, 80, 160, 320, 600, 600, 600, 600, 600]
        #expect(delays("d_1", RetrySchedule(jitter: 0)) == seconds.map { Duration.seconds($0) })
        #expect(RetrySchedule().nextAttempt(after: 12, deliveryID: "d_1") == nil)
        #expect(RetrySchedule().nextAttempt(after: 0, deliveryID: "d_1") == nil)
    }

    /// The jitter only shortens a delay, by less than a fifth; the same delivery gets the same
    /// delays (after a restart too), others others; all told about an hour.
    @Test func jitter() {
        let nominal = delays("", RetrySchedule(jitter: 0))
        var schedules: Set<[Duration]> = []
        for index in 0..<200 {
            let id = "d_\(index)"
            let jittered = delays(id)
            #expect(jittered == delays(id))
            #expect(jittered.count == nominal.count)
            for (delay, full) in zip(jittered, nominal) { #expect(delay <= full && delay > full * 0.8, "\(id)") }
            let total = jittered.reduce(Duration.zero, +)
            #expect(total > .seconds(48 * 60) && total <= .seconds(3630))
            schedules.insert(jittered)
        }
        #expect(schedules.count == 200)
    }
}
