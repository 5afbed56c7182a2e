import CompositionGraph

/// A nested project's mix as a clip's sound: its `AudioMixer` run at the rate the outer mix
/// reads at, in the outer output's channels. Sample p is nested time p / rate, past its end
/// silence. The mixer runs on from one read to the next; a read elsewhere starts a new one.
final class NestedAudioSource: AudioSampleSource {
    private let graph: CompositionGraph
    private let rate: Int
    private let channels: Int
    private let open: AudioMixer.SourceFactory
    private var mixer: AudioMixer?
    private var nextPosition: Int64 = 0

    init(_ nested: NestedProject, rate: Int, channels: Int, open: @escaping AudioMixer.SourceFactory) {
        graph = nested.graph
        self.rate = rate
        self.channels = channels
        self.open = open
    }

    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        if mixer == nil || position != nextPosition {
            mixer = AudioMixer(graph: graph, sampleRate: rate, channels: channels, makeSource: open)
        }
        try mixer!.mix(from: position, count: count, into: buffer)
        nextPosition = position + Int64(count)
    }
}
