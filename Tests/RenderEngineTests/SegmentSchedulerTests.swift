@testable import RenderEngine
import Testing

/// Workers walk contiguous runs of segments, and an idle worker splits the largest run left.
@Suite struct SegmentSchedulerTests {
    @Test func oneWorkerWalksEverySegmentInOrder() {
        let scheduler = SegmentScheduler(Array(0..<5))
        var order: [Int] = []
        var last: Int?
        while let next = scheduler.next(after: last) {
            order.append(next)
            last = next
        }
        #expect(order == [0, 1, 2, 3, 4])
    }

    @Test func theSecondWorkerTakesTheFarHalf() {
        let scheduler = SegmentScheduler(Array(0..<8))
        #expect(scheduler.next(after: nil) == 0)
        #expect(scheduler.next(after: nil) == 4)
        #expect(scheduler.next(after: 0) == 1)
        #expect(scheduler.next(after: 4) == 5)
        #expect(scheduler.next(after: 5) == 6)
        #expect(scheduler.next(after: 6) == 7)
        // The second worker is done with its run while the first is on 1: it splits 2...3.
        #expect(scheduler.next(after: 7) == 3)
        #expect(scheduler.next(after: 1) == 2)
        #expect(scheduler.next(after: 2) == nil)
        #expect(scheduler.next(after: 3) == nil)
    }

    @Test func aRunNobodyWalksIntoIsTakenFromItsStart() {
        // Segments 2 and 3 were reused from the cache: two runs, 0...1 and 4...7.
        let scheduler = SegmentScheduler([0, 1, 4, 5, 6, 7])
        #expect(scheduler.next(after: nil) == 4)
        // The far half of 5...7 would give it 2 segments, the untouched run 0...1 gives it 2 too: the first.
        #expect(scheduler.next(after: nil) == 0)
        #expect(scheduler.next(after: 0) == 1)
        // 1 is the end of its run: 4 does not follow it, so the worker splits 5...7.
        #expect(scheduler.next(after: 1) == 6)
        #expect(scheduler.next(after: 4) == 5)
        // 6 is being rendered: the idle worker takes 7 rather than wait.
        #expect(scheduler.next(after: 5) == 7)
        #expect(scheduler.next(after: 6) == nil)
    }

    @Test func everySegmentIsHandedOutOnceWhateverTheOrderOfAsking() {
        let scheduler = SegmentScheduler(Array(0..<13))
        var lasts: [Int?] = [nil, nil, nil]
        var handed: [Int] = []
        // Workers ask in an irregular order: 0, 1, 2, 2, 1, 0, 0, 1, 2, …
        for round in 0..<40 {
            for worker in round % 2 == 0 ? [0, 1, 2] : [2, 1, 0] where lasts[worker] != -1 {
                let next = scheduler.next(after: lasts[worker])
                if let next { handed.append(next) }
                lasts[worker] = next ?? -1
            }
        }
        #expect(lasts == [-1, -1, -1])
        #expect(handed.sorted() == Array(0..<13))
    }
}
