import AtomicFiles
import Digest
import Foundation
import MediaIO

/// One rendered segment on disk: its encoded video packets, what they were made for, and a
/// digest over everything, so a part that is truncated, damaged or made for other content is
/// recognised and never joined. A join's encoded audio is kept the same way (`audio` records
/// and a closing note).
///
/// Layout (integers little-endian): `REELPART` and a version (UInt32); the header as JSON
/// with its length (UInt32); one record per packet (tag 1, pts and dts as Int64, keyframe flag
/// UInt8, size UInt32, the bytes; tag 2 for a packet with Matroska BlockAdditional side data,
/// VP9's alpha, which follows as a size UInt32 and its bytes; tag 3 for an audio packet:
/// samples taken (Int64, Int64.min for a flushed packet), pts, dts and duration as Int64,
/// flags UInt32, size UInt32 and the bytes, then the side data count UInt32 and each as kind
/// UInt32, size UInt32 and bytes); a note (tag 4, size UInt32, bytes: JSON), at most one, last;
/// the end (tag 0, packet count UInt32, the SHA-256 of all the bytes before the end record, 32
/// bytes as hex).
enum PartFile {
    struct Header: Codable, Equatable {
        /// The segment's content key.
        var key: String
        var firstFrame: Int64
        var frameCount: Int64
        /// The encoder's global header, which the final file's stream must carry.
        var extradata: [UInt8]
    }

    static let magic = Array("REELPART".utf8)
    static let version: UInt32 = 1

    /// The file a segment with `key` has in `folder`.
    static func path(key: String, in folder: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent("\(key)\(suffix)").path
    }

    /// The file a join's audio with `key` is kept in, in `folder` (apart from the segments'
    /// parts, which runners count).
    static func audioPath(key: String, in folder: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent("\(key)\(audioSuffix)").path
    }

    static let suffix = ".reelpart"
    static let audioSuffix = ".reelaudio"

    /// Writes a part atomically: nothing is at `path` until `finish` renames the complete file
    /// into place. Use from one thread at a time.
    /// @unchecked: the join's audio thread appends to it; the join finishes it after that thread ended.
    final class Writer: @unchecked Sendable {
        private let file: PartialFile
        private var hash = SHA256()
        private var packets: UInt32 = 0

        init(path: String, header: Header) throws {
            do { file = try PartialFile(output: path) } catch { throw MediaError(error) }
            var start = PartFile.magic
            start.append(le: PartFile.version)
            // Sorted keys: a part's bytes are the same from any process (a retried unit writes the same file).
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = try encoder.encode(header)
            start.append(le: UInt32(json.count))
            start += json
            try write(start)
        }

        func append(_ packet: EncodedPacket) throws {
            let additional = packet.blockAdditional
            var record: [UInt8] = [additional.isEmpty ? 1 : 2]
            record.append(le: UInt64(bitPattern: packet.pts))
            record.append(le: UInt64(bitPattern: packet.dts))
            record.append(packet.isKeyframe ? 1 : 0)
            record.append(le: UInt32(packet.data.count))
            record += packet.data
            if !additional.isEmpty {
                record.append(le: UInt32(additional.count))
                record += additional
            }
            try write(record)
            packets += 1
        }

        func append(audio packet: EncodedAudioPacket) throws {
            let fields = packet.fields
            var record: [UInt8] = [3]
            record.append(le: UInt64(bitPattern: packet.samplesTaken ?? .min))
            for value in [fields.pts, fields.dts, fields.duration] { record.append(le: UInt64(bitPattern: value)) }
            record.append(le: UInt32(bitPattern: fields.flags))
            record.append(le: UInt32(fields.data.count))
            record += fields.data
            record.append(le: UInt32(fields.sideData.count))
            for side in fields.sideData {
                record.append(le: side.kind)
                record.append(le: UInt32(side.bytes.count))
                record += side.bytes
            }
            try write(record)
            packets += 1
        }

        /// Ends the part with a note (JSON), before `finish`.
        func append(note: [UInt8]) throws {
            var record: [UInt8] = [4]
            record.append(le: UInt32(note.count))
            try write(record + note)
        }

        func finish() throws {
            var end: [UInt8] = [0]
            end.append(le: packets)
            end += Array(hash.hexDigest().utf8)
            do {
                try file.write(end)
                try file.commit()
            } catch {
                throw MediaError(error)
            }
        }

        func discard() { file.discard() }

        private func write(_ bytes: [UInt8]) throws {
            hash.update(bytes)
            do { try file.write(bytes) } catch { throw MediaError(error) }
        }
    }

    /// Why a part cannot be joined.
    enum Problem: Error, Equatable {
        case missing
        case damaged(String)
        case foreign(expected: String, found: String)
    }

    /// What a part holds.
    struct Contents {
        var header: Header
        var video: [EncodedPacket] = []
        var audio: [EncodedAudioPacket] = []
        var note: [UInt8]?
    }

    /// One packet record.
    enum Record {
        case video(EncodedPacket)
        case audio(EncodedAudioPacket)
    }

    /// The header and packets of the part at `path`, checked complete, undamaged and made for
    /// `key`.
    static func read(_ path: String, key: String) throws(Problem) -> (Header, [EncodedPacket]) {
        let contents = try contents(path, key: key)
        return (contents.header, contents.video)
    }

    /// Everything in the part at `path`, checked complete, undamaged and made for `key`.
    static func contents(_ path: String, key: String) throws(Problem) -> Contents {
        let file = try Opened(path)
        var video: [EncodedPacket] = [], audio: [EncodedAudioPacket] = []
        let (header, note) = try asProblem {
            try file.scan(key: key) { record in
                switch record {
                case .video(let packet): video.append(packet)
                case .audio(let packet): audio.append(packet)
                }
            }
        }
        return Contents(header: header, video: video, audio: audio, note: note)
    }

    /// A part checked whole once and then read again, record by record, from the same open
    /// file, so that a long one (a join's kept audio: an hour of PCM is 700 MB) is never held
    /// in memory. Reel replaces parts by renaming, never in place, so the second reading sees
    /// the bytes the first one checked.
    final class Checked: Sendable {
        let header: Header
        let note: [UInt8]?
        private let file: Opened
        private let key: String

        init(_ path: String, key: String) throws(Problem) {
            file = try Opened(path)
            self.key = key
            (header, note) = try asProblem { [file] in try file.scan(key: key) { _ in } }
        }

        /// Hands every packet to `visit`, in order (rethrows its errors).
        func readAgain(_ visit: (Record) throws -> Void) throws {
            _ = try file.scan(key: key, visit)
        }
    }

    /// `body`'s result; its failures are problems of the part (`scan` throws nothing else when
    /// its visitor does not throw).
    private static func asProblem<T>(_ body: () throws -> T) throws(Problem) -> T {
        do { return try body() } catch let problem as Problem { throw problem } catch { throw .damaged("\(error)") }
    }

    /// An open part file.
    private final class Opened: Sendable {
        let handle: FileHandle

        init(_ path: String) throws(Problem) {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw .missing }
            self.handle = handle
        }

        deinit { try? handle.close() }

        /// Reads the part from its start, checking it whole (a `Problem` once something is
        /// wrong), and hands each packet record to `visit` as it comes.
        func scan(key: String, _ visit: (Record) throws -> Void) throws -> (Header, [UInt8]?) {
            do { try handle.seek(toOffset: 0) } catch { throw Problem.damaged("it cannot be read: \(error)") }
            var reader = ByteReader(handle)
            guard try reader.take(magic.count) == magic, try reader.uint32() == version else { throw Problem.damaged("it is not a Reel part file") }
            guard let length = try reader.uint32(), let json = try reader.take(Int(length)),
                  let header = try? JSONDecoder().decode(Header.self, from: Data(json)) else { throw Problem.damaged("its header is cut short or unreadable") }
            guard header.key == key else { throw Problem.foreign(expected: key, found: header.key) }
            var note: [UInt8]?
            var held: UInt32 = 0
            while true {
                var digestBefore = reader.digest
                guard let tag = try reader.take(1)?.first else { throw Problem.damaged("it ends before its last packet (truncated)") }
                switch tag {
                case 0:
                    guard let count = try reader.uint32(), let digest = try reader.take(64), try reader.atEnd else { throw Problem.damaged("its end record is cut short") }
                    guard String(decoding: digest, as: UTF8.self) == digestBefore.hexDigest() else { throw Problem.damaged("its bytes do not match its digest") }
                    guard count == held else { throw Problem.damaged("it says \(count) packets but holds \(held)") }
                    return (header, note)
                case _ where note != nil:
                    throw Problem.damaged("it holds a record after its note")
                case 1, 2:
                    guard let pts = try reader.uint64(), let dts = try reader.uint64(), let key = try reader.take(1),
                          let size = try reader.uint32(), let data = try reader.take(Int(size)),
                          let additional = tag == 1 ? [] : try reader.uint32().flatMap({ try reader.take(Int($0)) }) else {
                        throw Problem.damaged("it ends inside a packet (truncated)")
                    }
                    held += 1
                    try visit(.video(EncodedPacket(pts: Int64(bitPattern: pts), dts: Int64(bitPattern: dts), isKeyframe: key[0] == 1,
                                                   data: data, blockAdditional: additional)))
                case 3:
                    held += 1
                    try visit(.audio(try audioPacket(&reader)))
                case 4:
                    guard let size = try reader.uint32(), let bytes = try reader.take(Int(size)) else { throw Problem.damaged("its note is cut short") }
                    note = bytes
                default:
                    throw Problem.damaged("it holds an unknown record (tag \(tag))")
                }
            }
        }

        private func audioPacket(_ reader: inout ByteReader) throws -> EncodedAudioPacket {
            let cut = Problem.damaged("it ends inside a packet (truncated)")
            guard let taken = try reader.uint64(), let pts = try reader.uint64(), let dts = try reader.uint64(), let duration = try reader.uint64(),
                  let flags = try reader.uint32(), let size = try reader.uint32(), let data = try reader.take(Int(size)),
                  let sides = try reader.uint32() else { throw cut }
            var sideData: [EncodedAudioPacket.Fields.SideData] = []
            for _ in 0..<sides {
                guard let kind = try reader.uint32(), let length = try reader.uint32(), let side = try reader.take(Int(length)) else { throw cut }
                sideData.append(.init(kind: kind, bytes: side))
            }
            let fields = EncodedAudioPacket.Fields(pts: Int64(bitPattern: pts), dts: Int64(bitPattern: dts), duration: Int64(bitPattern: duration),
                                                   flags: Int32(bitPattern: flags), data: data, sideData: sideData)
            let samplesTaken = Int64(bitPattern: taken)
            do {
                return try EncodedAudioPacket(fields: fields, samplesTaken: samplesTaken == .min ? nil : samplesTaken)
            } catch {
                throw Problem.damaged("an audio packet cannot be made again: \(error)")
            }
        }
    }
}

/// Reads a file's little-endian integers and byte runs in 1 MiB blocks, keeping the SHA-256
/// of what it has taken; nil past the end, `Problem.damaged` when the file cannot be read.
private struct ByteReader {
    private let handle: FileHandle
    private var block: [UInt8] = []
    private var offset = 0
    private(set) var digest = SHA256()

    init(_ handle: FileHandle) { self.handle = handle }

    var atEnd: Bool {
        mutating get throws { try fill(1) == false }
    }

    mutating func take(_ n: Int) throws -> [UInt8]? {
        guard n >= 0, try fill(n) else { return nil }
        defer { offset += n }
        let bytes = Array(block[offset..<offset + n])
        digest.update(bytes)
        return bytes
    }

    mutating func uint32() throws -> UInt32? { try take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } } }
    mutating func uint64() throws -> UInt64? { try take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } } }

    /// Whether `n` bytes are ready from `offset`, reading more as needed.
    private mutating func fill(_ n: Int) throws -> Bool {
        while block.count - offset < n {
            let more: Data?
            // Whole blocks only, so a damaged size field cannot ask for more than the file holds.
            do { more = try handle.read(upToCount: 1 << 20) } catch {
                throw PartFile.Problem.damaged("it cannot be read: \(error)")
            }
            guard let more, !more.isEmpty else { return false }
            block.removeFirst(offset)
            offset = 0
            block += more
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    mutating func append(le value: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) } }
    mutating func append(le value: UInt64) { for i in 0..<8 { append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) } }
}
