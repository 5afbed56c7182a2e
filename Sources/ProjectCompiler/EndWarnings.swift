import MediaTime
import ProjectFile

/// Warnings about how the timeline ends: things that render, but hardly as meant.
extension CompileSession {
    /// Where the timeline's content ends without `output.duration`, and what ends there last.
    func contentEnd(video: [[PlacedClip<VideoClip>]], audio: [[PlacedClip<AudioClip>]]) -> (end: MediaTime, origin: Origin)? {
        let ends = video.flatMap { $0.map { ($0.target.end, $0.clip.origin) } } + audio.flatMap { $0.map { ($0.target.end, $0.clip.origin) } }
            + overlayTimes.compactMap { o in o.end.map { ($0, o.overlay.origin) } }
        return ends.max { $0.0 < $1.0 }.map { (end: $0.0, origin: $0.1) }
    }

    /// `output.duration` that cuts something off, and sound that goes on after the last
    /// picture (the end then shows the background alone).
    mutating func warnAboutEnds(video: [[PlacedClip<VideoClip>]], audio: [[PlacedClip<AudioClip>]], duration: MediaTime) {
        if let cut = project.output.duration, let content = contentEnd(video: video, audio: audio), content.end > cut {
            problems.warn("output.duration (\(TimeNotation.seconds(cut))) ends the video before \(content.origin.path) does (at \(TimeNotation.clock(content.end))): its last \(TimeNotation.seconds(content.end - cut)) and any fade-out there are cut",
                          at: project.output.durationOrigin ?? content.origin,
                          hint: "lengthen output.duration to \(TimeNotation.seconds(content.end)), or end the item (and its fade) by \(TimeNotation.seconds(cut))")
        }
        // An overlay without a duration lasts to the end.
        let pictures = video.flatMap { $0.map(\.target.end) } + overlayTimes.map { $0.end ?? duration }
        guard let lastPicture = pictures.max(), lastPicture < duration else { return }
        let sounds = video.flatMap { $0.filter { hasOwnAudio($0.clip) }.map { ($0.target.end, $0.clip.origin) } }
            + audio.flatMap { $0.map { ($0.target.end, $0.clip.origin) } }
        guard let sound = sounds.max(by: { $0.0 < $1.0 }), sound.0 > lastPicture else { return }
        let heardUntil = min(sound.0, duration)
        problems.warn("the sound goes on \(TimeNotation.seconds(heardUntil - lastPicture)) after the last picture (which ends at \(TimeNotation.clock(lastPicture))): the video shows only the background until \(TimeNotation.clock(heardUntil))",
                      at: sound.1, hint: "end the sound with the pictures (a duration here, or output.duration), or add a picture that lasts as long")
    }
}
