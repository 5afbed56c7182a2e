import Foundation
import MediaIO
import Testing
@testable import RenderEngine

/// Part files are read from disk in blocks: records that cross blocks, packets larger than a
/// block, and a long kept audio part read twice (checked whole, then record by record).
@Suite struct PartFileTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).reelpart").path
    }

    private func audioFields(_ i: Int) -> EncodedAudioPacket.Fields {
        EncodedAudioPacket.Fields(pts: Int64(i) * 1024, dts: Int64(i) * 1024, duration: 1024, flags: 1,
                                  data: (0..<(700 + i % 300)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) },
                                  sideData: i % 500 == 0 ? [.init(kind: 1, bytes: [UInt8(i % 256), 7])] : [])
    }

    /// 1,600 audio packets (1.4 MB, so records cross the reader's 1 MiB blocks) and a note.
    private func writeAudioPart(_ path: String) throws {
        let writer = try PartFile.Writer(path: path, header: .init(key: "audio", firstFrame: 0, frameCount: 0, extradata: [1, 2]))
        for i in 0..<1600 {
            try writer.append(audio: try EncodedAudioPacket(fields: audioFields(i), samplesTaken: i == 1599 ? nil : Int64(i + 1) * 1024))
        }
        try writer.append(note: Array(#"{"loudness":null}"#.utf8))
        try writer.finish()
    }

    @Test func aKeptAudioPartIsCheckedWholeThenReadAgainRecordByRecord() throws {
        let path = temporaryPath("audio")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writeAudioPart(path)
        let checked = try PartFile.Checked(path, key: "audio")
        #expect(checked.header.extradata == [1, 2])
        #expect(checked.note == Array(#"{"loudness":null}"#.utf8))
        for _ in 0..<2 {
            var count = 0
            try checked.readAgain { record in
                guard case .audio(let packet) = record else { Issue.record("a video record in an audio part"); return }
                #expect(packet.fields == audioFields(count))
                #expect(packet.samplesTaken == (count == 1599 ? nil : Int64(count + 1) * 1024))
                count += 1
            }
            #expect(count == 1600)
        }
        #expect(throws: PartFile.Problem.foreign(expected: "other", found: "audio")) { try PartFile.Checked(path, key: "other") }
    }

    /// A changed byte anywhere, or a cut, is found before any packet is handed out.
    @Test func aDamagedOrTruncatedPartIsRefusedWhole() throws {
        let path = temporaryPath("damaged")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writeAudioPart(path)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        var flipped = good
        flipped[good.count - 200_000] ^= 0x40
        try flipped.write(to: URL(fileURLWithPath: path))
        #expect(throws: PartFile.Problem.damaged("its bytes do not match its digest")) { try PartFile.Checked(path, key: "audio") }
        try good.prefix(good.count - 50).write(to: URL(fileURLWithPath: path))
        #expect(throws: PartFile.Problem.self) { try PartFile.Checked(path, key: "audio") }
        // A packet's size field turned to 4 GB: refused as cut short, reading no more than the file.
        var huge = good
        let firstSize = PartFile.magic.count + 4 + 4 + Int(good[PartFile.magic.count + 4]) + Int(good[PartFile.magic.count + 5]) << 8 + 1 + 8 * 4 + 4
        huge.replaceSubrange(firstSize..<firstSize + 4, with: [0xff, 0xff, 0xff, 0xff])
        try huge.write(to: URL(fileURLWithPath: path))
        #expect(throws: PartFile.Problem.damaged("it ends inside a packet (truncated)")) { try PartFile.Checked(path, key: "audio") }
        try good.prefix(good.count * 2 / 3).write(to: URL(fileURLWithPath: path))
        #expect(throws: PartFile.Problem.damaged("it ends inside a packet (truncated)")) { try PartFile.contents(path, key: "audio") }
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: PartFile.Problem.missing) { try PartFile.read(path, key: "audio") }
    }

    /// A video packet larger than the reader's block (a 1.5 MB keyframe) reads back whole.
    @Test func aPacketLargerThanABlockReadsBackWhole() throws {
        let path = temporaryPath("video")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let packets = [EncodedPacket(pts: 0, dts: 0, isKeyframe: true, data: (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }),
                       EncodedPacket(pts: 1, dts: 1, isKeyframe: false, data: [9, 9, 9])]
        let writer = try PartFile.Writer(path: path, header: .init(key: "v", firstFrame: 10, frameCount: 2, extradata: []))
        for packet in packets { try writer.append(packet) }
        try writer.finish()
        let (header, read) = try PartFile.read(path, key: "v")
        #expect(header.firstFrame == 10)
        #expect(read == packets)
    }
}
