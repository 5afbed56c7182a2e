import Foundation

/// A first-in first-out queue between two pipeline threads that holds at most `capacity`
/// items: `push` waits while it is full, `pop` while it is empty. Closing it wakes both
/// sides; `pop` then drains what is left and returns nil.
///
/// @unchecked: its state is used only under `condition` (an `NSCondition`: both sides wait); an item pushed is the popper's.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false

    init(capacity: Int) {
        precondition(capacity > 0, "a queue needs room for at least one item")
        items = Array(repeating: nil, count: capacity)
    }

    /// Adds `item`, waiting for room; false (item dropped) if the queue was closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == items.count && !closed { condition.wait() }
        guard !closed else { return false }
        items[(head + count) % items.count] = item
        count += 1
        condition.broadcast()
        return true
    }

    /// The oldest item, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0 else { return nil }
        let item = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        condition.broadcast()
        return item
    }

    /// No more pushes; pending items can still be popped.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Closes the queue and drops what it holds (on cancel or error).
    func discard() {
        condition.lock()
        closed = true
        for i in items.indices { items[i] = nil }
        count = 0
        condition.broadcast()
        condition.unlock()
    }
}
