internal import CFFmpeg
import MediaFormat

/// A compressed audio packet as its encoder gave it, kept whole (duration and side data
/// included, such as FLAC's final STREAMINFO or Opus's discard padding), for a `MediaWriter`
/// made with `encodedAudio: true`.
///
/// @unchecked: it owns an FFmpeg packet (a C pointer), never changed once the encoder gave it.
public struct EncodedAudioPacket: @unchecked Sendable {
    let packet: Packet
    /// The samples the encoder had taken when the packet came out; nil for the packets its
    /// flush gave. A writer fed the same samples in frames would have written the packet as
    /// soon as it was given that many.
    public let samplesTaken: Int64?
    init(packet: Packet, samplesTaken: Int64?) {
        self.packet = packet
        self.samplesTaken = samplesTaken
    }

    /// The packet's size in bytes.
    public var size: Int { Int(packet.pointer.pointee.size) }

    /// What the packet holds, to keep it in a file and make it again (`init(fields:samplesTaken:)`).
    public struct Fields: Equatable, Sendable {
        public var pts: Int64
        public var dts: Int64
        public var duration: Int64
        public var flags: Int32
        public var data: [UInt8]
        /// FFmpeg's side data, by type (`AVPacketSideDataType`), in order.
        public var sideData: [SideData]

        public struct SideData: Equatable, Sendable {
            public var kind: UInt32
            public var bytes: [UInt8]
            public init(kind: UInt32, bytes: [UInt8]) {
                self.kind = kind
                self.bytes = bytes
            }
        }

        public init(pts: Int64, dts: Int64, duration: Int64, flags: Int32, data: [UInt8], sideData: [SideData]) {
            self.pts = pts
            self.dts = dts
            self.duration = duration
            self.flags = flags
            self.data = data
            self.sideData = sideData
        }
    }

    public var fields: Fields {
        let p = packet.pointer.pointee
        let side = (0..<Int(p.side_data_elems)).map { i in
            let element = p.side_data[i]
            return Fields.SideData(kind: element.type.rawValue, bytes: Array(UnsafeBufferPointer(start: element.data, count: element.size)))
        }
        return Fields(pts: p.pts, dts: p.dts, duration: p.duration, flags: p.flags,
                      data: p.size > 0 ? Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))) : [], sideData: side)
    }

    /// The packet `fields` describe. Throws `MediaError` when memory runs out.
    public init(fields: Fields, samplesTaken: Int64?) throws {
        let site = FFmpegCallSite(path: "audio packet")
        let packet = try Packet(site)
        try FFmpeg.check(av_new_packet(packet.pointer, Int32(fields.data.count)), "av_new_packet", site, .outOfMemory, "cannot make a packet")
        fields.data.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { packet.pointer.pointee.data.update(from: base, count: bytes.count) }
        }
        packet.pointer.pointee.pts = fields.pts
        packet.pointer.pointee.dts = fields.dts
        packet.pointer.pointee.duration = fields.duration
        packet.pointer.pointee.flags = fields.flags
        for side in fields.sideData {
            let target = try FFmpeg.allocated(av_packet_new_side_data(packet.pointer, AVPacketSideDataType(rawValue: side.kind), side.bytes.count),
                                              "av_packet_new_side_data", site)
            target.update(from: side.bytes, count: side.bytes.count)
        }
        self.init(packet: packet, samplesTaken: samplesTaken)
    }
}

/// Encodes audio to packets without writing a file, so the encoding can run on another
/// thread than the muxing (a join mixes and encodes its audio ahead of the video parts).
/// The packets are those a `MediaWriter` with the same settings would have encoded. Use from
/// one thread at a time.
///
/// @unchecked: it owns an FFmpeg encoder (a C pointer); one thread at a time uses it.
public final class AudioPacketEncoder: @unchecked Sendable {
    private let encoder: AudioEncoder
    private let site: FFmpegCallSite

    /// `settings` name the final file's container (its header needs decide the encoder's
    /// global header) and the audio; `path` names the file in messages. Throws `MediaError`.
    public init(settings: WriterSettings, path: String) throws {
        guard let audio = settings.audio else { throw MediaError(.invalidArgument, path: path, "the settings have no audio stream") }
        guard let format = av_guess_format(settings.container.muxerName, nil, nil) else {
            throw MediaError(.unsupportedSettings, path: path, "this FFmpeg build cannot write \(settings.container.rawValue) files")
        }
        site = FFmpegCallSite(path: path)
        encoder = try AudioEncoder(audio, container: settings.container, format: format, path: path)
    }

    /// The codec's global header (AAC's AudioSpecificConfig in MP4), which the final file's
    /// stream carries: packets kept from an encoder with another one do not belong there.
    public var extradata: [UInt8] { encoder.context.extradata }

    /// Encodes interleaved Float32 samples, continuing where the last call stopped; returns
    /// the packets that came out.
    public func encode(_ samples: UnsafeBufferPointer<Float>) throws -> [EncodedAudioPacket] {
        var packets: [EncodedAudioPacket] = []
        try encoder.append(samples) { packets.append(EncodedAudioPacket(packet: try copy($0), samplesTaken: encoder.samplesTaken)) }
        return packets
    }

    /// Encodes what is left and drains the encoder; returns the last packets.
    public func finish() throws -> [EncodedAudioPacket] {
        var packets: [EncodedAudioPacket] = []
        try encoder.flush { packets.append(EncodedAudioPacket(packet: try copy($0), samplesTaken: nil)) }
        return packets
    }

    private func copy(_ packet: Packet) throws -> Packet {
        let copy = try Packet(site)
        try FFmpeg.check(av_packet_ref(copy.pointer, packet.pointer), "av_packet_ref", site, .outOfMemory, "cannot keep an audio packet")
        return copy
    }
}
