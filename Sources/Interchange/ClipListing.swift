import MediaTime

/// The clip list of an interchange timeline as JSON, in OpenTimelineIO's terms, for checking
/// against OpenTimelineIO's own readers: per track, each clip's name, source range (start and
/// duration) and record range (its place on the track), in frames at the timeline's rate
/// (`"n/d"` when not whole), and its speed.
public enum ClipListing {
    public static func json(_ timeline: InterchangeTimeline, warnings: [ImportWarning]) -> String {
        let rate = timeline.rate
        func frames(_ t: MediaTime) -> TextValue {
            let f = t.value * rate
            return .string(f.isInteger ? "\(f.numerator)" : "\(f.numerator)/\(f.denominator)")
        }
        let tracks = timeline.tracks.map { track in
            TextValue.map([
                TextEntry("kind", .string(track.kind.rawValue)), TextEntry("name", .string(track.name)),
                TextEntry("clips", .list(track.clipPlacements.map { clip, record in
                    .map([TextEntry("name", .string(clip.name)),
                          TextEntry("source", .list([frames(clip.sourceRange.start), frames(clip.sourceRange.duration)])),
                          TextEntry("record", .list([frames(record.start), frames(record.duration)])),
                          TextEntry("speed", .string(clip.speed.description))])
                })),
            ])
        }
        return ProjectText.json([
            TextEntry("rate", .string(rate.description)), TextEntry("tracks", .list(tracks)),
            TextEntry("warnings", .list(warnings.map { .string($0.description) })),
        ])
    }
}
