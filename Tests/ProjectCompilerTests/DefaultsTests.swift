import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// `defaults:` and YAML merge keys in whole projects: what each clip and overlay ends up with,
/// which default wins, and where errors in merged values point.
@Suite struct DefaultsTests {
    let project = PromoProjectText(file: "defaults.yaml")

    func load(_ text: String) throws(ProjectError) -> ProjectPipeline.Loaded { try project.load(text) }
    func failure(_ text: String) -> ProjectError? { project.failure(text) }

    func clips(_ project: Project, track: Int = 0) -> [VideoClip] {
        project.videoTracks[track].items.compactMap { if case .clip(let c) = $0 { c } else { nil } }
    }

    @Test func clipsTakeTheTracksDefaultsThenTheProjects() throws {
        let project = try load("""
            defaults:
              clip: { fit: cover, mute: true, duration: 2s }
            video:
              - clips:
                  - media: a
                  - media: b
                    fit: fill
                  - transition: crossfade
                    duration: 0.5s
                  - media: a
                    to: 1s
              - defaults: { clip: { fit: none } }
                clips:
                  - media: logo
            """).project
        let main = clips(project)
        #expect(main.map(\.fit) == [.cover, .fill, .cover])
        #expect(main.map(\.mute) == [true, true, true])
        // `to` says where the third clip ends: the default duration stands back.
        #expect(main.map(\.timing.duration) == [seconds(2), seconds(2), nil])
        #expect(main[2].timing.to == seconds(1))
        // The track's fit wins over the project's; the rest comes from the project.
        #expect(clips(project, track: 1).map(\.fit) == [Fit.none])
        #expect(clips(project, track: 1).first?.timing.duration == seconds(2))
    }

    @Test func aTextOverlaysStyleMergesKeyByKey() throws {
        let graph = try load("""
            defaults:
              overlay: { opacity: 0.5, style: { font: DejaVu Sans Mono, size: 30, color: "#ff0000" } }
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: One, at: 0s, duration: 1s }
              - { text: Two, at: 1s, duration: 1s, opacity: 1, style: { size: 60 } }
              - { rect: true, at: 2s, duration: 1s, size: [10, 10], fill: "#00ff00" }
            """).graph
        func style(_ i: Int) -> TextStyle? { if case .text(_, let s) = graph.overlays[i].content { s } else { nil } }
        #expect(style(0)?.font == "DejaVu Sans Mono" && style(0)?.size == 30)
        #expect(style(1)?.font == "DejaVu Sans Mono" && style(1)?.size == 60 && style(1)?.color == style(0)?.color)
        #expect(graph.overlays[0].opacity.value(at: seconds(1, 2)) == 0.5)
        #expect(graph.overlays[1].opacity.value(at: seconds(3, 2)) == 1)
        #expect(graph.overlays[2].opacity.value(at: seconds(5, 2)) == 0.5)
    }

    @Test func soundClipsTakeTheirTracksDefaults() throws {
        let project = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            audio:
              - defaults: { clip: { volume: 0.25 } }
                clips: [{ media: music, duration: 2s }, { media: music, duration: 2s, volume: 1 }]
            """).project
        let volumes = project.audioTracks[0].items.compactMap { item -> Double? in
            if case .clip(let c) = item, case .constant(let v) = c.volume { v } else { nil }
        }
        #expect(volumes == [0.25, 1])
    }

    @Test func whatNamesAnItemIsNoDefault() {
        let error = failure("""
            defaults:
              clip: { media: a, fit: cover, at: 1s }
              overlay: { text: Hi }
            video: [{ clips: [{ media: a, duration: 4s }] }]
            """)
        #expect(error?.diagnostics.map(\.message) == ["'media' cannot be a default: each clip says what it shows",
                                                      "'at' cannot be a default: each clip has its own place on the timeline",
                                                      "'text' cannot be a default: each overlay says what it shows"])
        #expect(error?.diagnostics.map(\.location.line) == [5, 5, 6])
        #expect(error?.diagnostics.first?.hint == "write it on each clip and keep in defaults what they share")
    }

    @Test func bothEndsInOneDefaultsBlockAreReportedOnce() {
        let error = failure("""
            defaults: { clip: { to: 2s, duration: 2s } }
            video: [{ clips: [{ media: a }, { media: b }] }]
            """)
        #expect(error?.diagnostics.map(\.message) == ["'to' and 'duration' both set where a clip ends"])
    }

    @Test func anErrorInADefaultPointsAtTheDefault() {
        // A still image needs a duration; the default gives it an unusable one, at line 5.
        let error = failure("""
            defaults:
              clip: { duration: 0s }
            video: [{ clips: [{ media: logo }] }]
            """)
        #expect(error?.diagnostics.first?.location.line == 5, "\(error?.diagnostics.map(\.message) ?? [])")
    }

    @Test func mergeKeysWriteRepeatedClips() throws {
        // The anchor sits in the defaults block (a key the schema allows), the clips merge it.
        let project = try load("""
            defaults: { clip: &clip { fit: cover, mute: true, duration: 1s } }
            video:
              - clips:
                  - { <<: *clip, media: a }
                  - { <<: *clip, media: b, duration: 3s, fit: fill }
            """).project
        #expect(clips(project).map(\.fit) == [.cover, .fill])
        #expect(clips(project).map(\.timing.duration) == [seconds(1), seconds(3)])
    }

    @Test func durationMediaPlaysToTheMediasEndOverADefault() throws {
        // A.mp4 lasts 12 s: from 4 s, `duration: media` plays 8 s where the default would give 2 s.
        let loaded = try load("""
            defaults: { clip: { duration: 2s } }
            video: [{ clips: [{ media: a, from: 4s, duration: media }] }]
            audio: [{ clips: [{ media: music, duration: media }] }]
            """)
        #expect(clips(loaded.project).first?.timing.toMediaEnd == true)
        // The music (22 s) ends where it ends, after the pictures.
        #expect(loaded.graph.duration == seconds(22))
        #expect(loaded.graph.composition.tracks.first { $0.kind == .video }?.segments.first { $0.content != nil }?.target.end == seconds(8))
    }

    @Test func durationMediaNeedsMediaWithAnEnd() {
        let colour = failure("video: [{ clips: [{ color: \"#000000\", duration: media }] }]")
        #expect(colour?.diagnostics.map(\.message) == ["'duration: media' plays a clip to its media's end, but a colour, GLSL or still-image clip has no end of its own"])
        let looped = failure("""
            video: [{ clips: [{ media: a }] }]
            audio: [{ clips: [{ media: music, loop: true, duration: media }] }]
            """)
        #expect(looped?.diagnostics.map(\.message) == ["'loop: true' repeats the sound to fill a duration, and 'duration: media' plays it once to its end"])
        #expect(looped?.diagnostics.first?.location.line == 5)
    }
}
