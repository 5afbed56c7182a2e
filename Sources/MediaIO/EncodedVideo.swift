internal import CFFmpeg
import MediaFormat

/// A compressed video packet as the encoder gave it, with times counted in frames of the
/// stream (frame n has pts n; dts may start below 0 by the encoder's reorder delay).
public struct EncodedPacket: Sendable, Equatable {
    public var pts: Int64
    public var dts: Int64
    public var isKeyframe: Bool
    public var data: [UInt8]
    /// The packet's Matroska BlockAdditional side data as FFmpeg gives it (an 8-byte
    /// BlockAddID, then the bytes): VP9's alpha channel, coded as a second picture that
    /// Matroska stores beside the frame. Empty for every other packet.
    public var blockAdditional: [UInt8]

    public init(pts: Int64, dts: Int64, isKeyframe: Bool, data: [UInt8], blockAdditional: [UInt8] = []) {
        self.pts = pts
        self.dts = dts
        self.isKeyframe = isKeyframe
        self.data = data
        self.blockAdditional = blockAdditional
    }

    init(_ packet: Packet) {
        let p = packet.pointer.pointee
        pts = p.pts
        dts = p.dts
        isKeyframe = (p.flags & AV_PKT_FLAG_KEY) != 0
        data = p.size > 0 ? Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))) : []
        var size = 0
        let side = av_packet_get_side_data(packet.pointer, AV_PKT_DATA_MATROSKA_BLOCKADDITIONAL, &size)
        blockAdditional = side.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }
}

/// Encodes video frames to packets without writing a file: one piece of a segmented render,
/// whose packets a `MediaWriter` made with `encodedVideo: true` and the same settings joins
/// into the final file. A new encoder starts with a keyframe, so every piece can be decoded
/// on its own; its bytes depend only on its frames and the settings (threads included).
public final class VideoPacketEncoder {
    public let settings: WriterSettings
    private let encoder: VideoEncoder
    private var nextIndex: Int64 = 0

    /// `settings` name the final file's container (its header needs decide the bitstream
    /// form) and the video; `path` names the piece in messages. Throws `MediaError`.
    public init(settings: WriterSettings, path: String) throws {
        guard let video = settings.video else { throw MediaError(.invalidArgument, path: path, "the settings have no video stream") }
        guard let format = av_guess_format(settings.container.muxerName, nil, nil) else {
            throw MediaError(.unsupportedSettings, path: path, "this FFmpeg build cannot write \(settings.container.rawValue) files")
        }
        self.settings = settings
        encoder = try VideoEncoder(video, container: settings.container, format: format, path: path)
    }

    /// The codec's global header (SPS/PPS for H.264 in MP4), which the final file's stream
    /// must carry; pieces made with other settings have another one.
    public var extradata: [UInt8] { encoder.extradata }

    /// Encodes the next frame (frame 0 first); returns the packets that came out.
    public func encode(_ frame: VideoFrame) throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        try encoder.encode(frame, index: nextIndex) { packets.append(EncodedPacket($0)) }
        nextIndex += 1
        return packets
    }

    /// Flushes the encoder; returns the last packets.
    public func finish() throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        try encoder.flush { packets.append(EncodedPacket($0)) }
        return packets
    }
}

extension VideoEncoder {
    var extradata: [UInt8] { context.extradata }
}

extension CodecContext {
    /// The codec's global header (H.264's SPS/PPS, AAC's AudioSpecificConfig in MP4).
    var extradata: [UInt8] {
        let c = pointer.pointee
        return c.extradata_size > 0 ? Array(UnsafeBufferPointer(start: c.extradata, count: Int(c.extradata_size))) : []
    }
}
