import MediaIO

/// An `AudioSampleSource` over MediaIO's `AudioReader` (sample-accurate, resampled by
/// libswresample to the asked rate and the output's channel layout).
final class MediaIOAudioSource: AudioSampleSource {
    private let reader: AudioReader

    init(path: String, rate: Int, channels: Int) throws {
        reader = try AudioReader(path: path, sampleRate: rate, channels: channels)
    }

    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        try reader.read(from: position, count: count, into: UnsafeMutableBufferPointer(start: buffer, count: count * reader.channels))
    }
}

extension MediaAccess {
    /// Video and sound opened with FFmpeg through MediaIO (`decoderThreads` per video
    /// decoder); stills read by `StillPicture`, as overlays read them; nested projects
    /// rendered from their graphs (`NestedFrames`, `NestedAudioSource`).
    static func mediaIO(channels: Int, decoderThreads: Int) -> MediaAccess {
        MediaAccess(openVideo: { ref in
                        if let nested = ref.nested {
                            let frames = try NestedFrames(nested, decoderThreads: decoderThreads)
                            return MediaIOVideoSource(frames: frames.frame(at:), hasAlpha: false)
                        }
                        switch ref.kind {
                        case .image, .svg: return try StillPictureSource(path: ref.path)
                        case .video, .audio: return try MediaIOVideoSource(path: ref.path, sequenceRate: ref.sequenceRate, decoderThreads: decoderThreads)
                        }
                    },
                    openAudio: { ref, rate in
                        guard let nested = ref.nested else { return try MediaIOAudioSource(path: ref.path, rate: rate, channels: channels) }
                        return NestedAudioSource(nested, rate: rate, channels: channels,
                                                 open: mediaIO(channels: channels, decoderThreads: decoderThreads).openAudio)
                    })
    }
}
