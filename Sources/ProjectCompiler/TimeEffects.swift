import CompositionGraph
import MediaTime

/// How a clip plays its source in time besides a constant speed: a speed ramp, backwards,
/// or one frame held (`speed:` keyframes, `reverse:`, `reverse_audio:`, `freeze:`).
public struct TimeEffects: Sendable {
    /// `speed:` as keyframes (clip-local timeline times from the clip's start); nil for a constant speed.
    public var ramp: SpeedCurve?
    /// `reverse: true`: the source range plays end first.
    public var reverse = false
    /// What a reversed clip's sound does.
    public var reverseAudio = ReverseAudio.backwards
    /// `freeze:`: the one source frame held for the clip's duration, without sound.
    public var freeze: FreezePoint?

    public init() {}

    /// The key of an effect that needs a source with time (a video), if the clip has one.
    public var keyNeedingSourceTime: String? {
        ramp != nil ? "speed" : reverse ? "reverse" : freeze != nil ? "freeze" : nil
    }

    /// The clip's own sound is left out (a held frame, or a reversed clip with `reverse_audio: mute`).
    public var silencesAudio: Bool { freeze != nil || (reverse && reverseAudio == .mute) }
}

/// `reverse_audio:`.
public enum ReverseAudio: String, Sendable {
    /// The samples play in reverse order, like the picture.
    case backwards
    /// The clip is silent.
    case mute
}

/// `freeze: 2.5s` holds the frame shown at that source time; `freeze: end`, the media's last frame.
public enum FreezePoint: Sendable {
    case at(MediaTime)
    case end
}
