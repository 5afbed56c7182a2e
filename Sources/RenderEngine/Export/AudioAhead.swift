import Foundation
import MediaIO
import MediaTime

/// The audio of a join, mixed and encoded on a thread of its own from the start, ahead of the
/// video's parts, so that what is left when the last part arrives is muxing: the audio's CPU
/// overlaps the rendering instead of following it.
///
/// The join still writes each audio packet where a writer fed the samples along with the
/// video would have: after each video packet, the packets the encoder had made from the
/// samples up to the end of that frame. So the file's bytes never depend on the thread's
/// timing. At most `byteLimit` bytes of packets wait ahead (minutes of compressed audio).
/// Audio an earlier join kept is read from its part on the same thread, under the same bound.
///
/// @unchecked: its state is used only under `condition` (an `NSCondition`: both sides wait).
final class AudioAhead<Outcome: Sendable>: @unchecked Sendable {
    static var byteLimit: Int { 64 << 20 }

    private let condition = NSCondition()
    private var packets: [EncodedAudioPacket] = []
    private var head = 0
    private var bytes = 0
    private var outcome: Result<Outcome, Error>?
    private var stopped = false
    private let ended = DispatchGroup()
    private let firstSample: Int64
    private let sampleCount: Int64
    private let rate: Int
    /// Whether the packets are those an earlier render kept (read, not mixed).
    let isKept: Bool

    /// Starts the thread: `produce` mixes the samples of `range` at `sampleRate` and hands
    /// them, in order and in blocks of any size, to the function it is given, which encodes
    /// them with `encoder`; its result is what `finish` returns. `keep` gets every packet too,
    /// on the thread, in order (to keep them for the next render; it cannot fail the render).
    convenience init(range: TimeRange, sampleRate: Int, encoder: AudioPacketEncoder, keep: (@Sendable (EncodedAudioPacket) -> Void)? = nil,
                     produce: @escaping @Sendable (_ encode: @escaping (UnsafeBufferPointer<Float>) throws -> Void) throws -> Outcome) {
        self.init(range: range, sampleRate: sampleRate, isKept: false) { queue in
            let handOn = { (packets: [EncodedAudioPacket]) in
                for packet in packets { keep?(packet) }
                try queue(packets)
            }
            let outcome = try produce { try handOn(try encoder.encode($0)) }
            try handOn(try encoder.finish())
            return outcome
        }
    }

    /// The packets an earlier render kept, which `read` hands over in order on the thread,
    /// and that render's outcome.
    convenience init(range: TimeRange, sampleRate: Int, kept read: @escaping @Sendable (_ take: (EncodedAudioPacket) throws -> Void) throws -> Void,
                     outcome: Outcome) {
        self.init(range: range, sampleRate: sampleRate, isKept: true) { queue in
            try read { try queue([$0]) }
            return outcome
        }
    }

    /// Starts the thread: `produce` hands the packets, in order, to the function it is given.
    private init(range: TimeRange, sampleRate: Int, isKept: Bool,
                 produce: @escaping @Sendable (_ queue: @escaping ([EncodedAudioPacket]) throws -> Void) throws -> Outcome) {
        (rate, firstSample, sampleCount) = Self.samples(of: range, rate: sampleRate)
        self.isKept = isKept
        ended.enter()
        let thread = Thread { [self] in
            defer { ended.leave() }
            let result = Result(catching: { try produce { try self.queue($0) } })
            condition.withLock {
                outcome = result
                condition.broadcast()
            }
        }
        thread.name = "reel-audio"
        thread.stackSize = 1 << 22
        thread.start()
    }

    private static func samples(of range: TimeRange, rate: Int) -> (Int, Int64, Int64) {
        let first = range.start.samplePosition(rate: rate)
        return (rate, first, range.end.samplePosition(rate: rate) - first)
    }

    deinit { cancel() }

    /// Writes the packets the encoder made from the samples before timeline time `t`, waiting
    /// for the thread when it has not got that far yet.
    func write(until t: MediaTime, to writer: MediaWriter) throws {
        let taken = min(max(t.samplePosition(rate: rate) - firstSample, 0), sampleCount)
        while let packet = try next(where: { $0.samplesTaken.map { $0 <= taken } ?? false }) {
            try writer.append(encodedAudio: packet)
        }
    }

    /// Waits for the thread to end, writes the packets left (the encoder's last ones too) and
    /// returns what `produce` returned; rethrows its error.
    func finish(to writer: MediaWriter) throws -> Outcome {
        while let packet = try next(where: { _ in true }) { try writer.append(encodedAudio: packet) }
        ended.wait()
        return try condition.withLock { try outcome!.get() }
    }

    /// Stops the thread (on a failure of the join) and waits for it.
    func cancel() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
        ended.wait()
    }

    /// The oldest packet if it passes `test`, waiting while there is none and the thread is
    /// still making them; nil once the packets that pass are all taken.
    private func next(where test: (EncodedAudioPacket) -> Bool) throws -> EncodedAudioPacket? {
        try condition.withLock {
            while head == packets.count, outcome == nil { condition.wait() }
            if head == packets.count {
                if case .failure(let error) = outcome { throw error }
                return nil
            }
            guard test(packets[head]) else { return nil }
            let packet = packets[head]
            head += 1
            bytes -= packet.size
            if head == packets.count || head > 4096 { // drop what was taken, now and then
                packets.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            return packet
        }
    }

    /// Adds packets for the join, waiting while `byteLimit` bytes are waiting already.
    private func queue(_ new: [EncodedAudioPacket]) throws {
        try condition.withLock {
            while bytes >= Self.byteLimit, !stopped { condition.wait() }
            guard !stopped else { throw RenderError.cancelled }
            packets += new
            bytes += new.reduce(0) { $0 + $1.size }
            condition.broadcast()
        }
    }
}
