internal import CFFmpeg
import MediaFormat

/// A compressed audio packet as its encoder gave it, kept whole (duration and side data
/// included, such as FLAC's final STREAMINFO or Opus's discard padding), for a `MediaWriter`
/// made with `encodedAudio: true`.
public struct EncodedAudioPacket: @unchecked Sendable {
    let packet: Packet
    /// The samples the encoder had taken when the packet came out; nil for the packets its
    /// flush gave. A writer fed the same samples in frames would have written the packet as
    /// soon as it was given that many.
    public let samplesTaken: Int64?
    /// The packet's size in bytes.
    public var size: Int { Int(packet.pointer.pointee.size) }
}

/// Encodes audio to packets without writing a file, so the encoding can run on another
/// thread than the muxing (a join mixes and encodes its audio ahead of the video parts).
/// The packets are those a `MediaWriter` with the same settings would have encoded. Use from
/// one thread at a time.
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
