import Foundation
import Interchange
import MediaTime
import ProjectCompiler
import Testing
import TestSupport

/// Every fixture of ../shared/testdata imports, gives a project Reel loads and compiles (media
/// absent: placeholders), and round-trips: import → export (its own format) → import gives
/// the same project. The listing says what was imported and warned, per fixture.
@Suite struct FixtureTests {
    /// Clips per track (the same as OpenTimelineIO reads: Tests/interchange/crosscheck.sh) and
    /// warnings (not counting media not found) of each fixture.
    static let expected: [String: (clips: [Int], warnings: Int)] = [
        "big_int.otio": ([1], 0), "clip_example.otio": ([1], 1), "effects.otio": ([13, 1, 0, 0, 4, 0, 0, 0, 0, 2, 1, 0, 6, 0, 1, 1, 0, 1, 1], 131),
        "generator_reference_test.otio": ([1], 1), "multiple_track.otio": ([3, 1, 1], 0), "multitrack.otio": ([3, 1, 1], 0),
        "nested_example.otio": ([4], 3), "preflattened.otio": ([5], 0), "premiere_example.otio": ([1, 3, 1, 2, 2, 1, 1, 2], 4),
        "screening_example.otio": ([9], 2), "simple_cut.otio": ([4], 0), "transition.otio": ([4], 0), "transition_test.otio": ([3], 3),
        "enabled.otio": ([2, 1], 0),
        "25fps.edl": ([4], 0), "avid_example.edl": ([2], 0), "cdl.edl": ([2], 4), "dissolve_test.edl": ([3], 0), "dissolve_test_2.edl": ([3], 0),
        "dissolve_test_3.edl": ([3], 1), "dissolve_test_4.edl": ([6], 0), "dissolve_test_fail.edl": ([3], 1), "gap_test.edl": ([3], 0),
        "multi_audio.edl": ([1, 1, 1], 0), "no_spaces_test.edl": ([9], 1), "nucoda_example.edl": ([2], 0), "premiere_example.edl": ([2], 0),
        "screening_example.edl": ([9], 1), "speed_effects.edl": ([548], 15), "speed_effects_small.edl": ([5], 3), "timecode_mismatch.edl": ([20], 4),
        "transition_duration.edl": ([4], 0), "wipe_test.edl": ([3], 0),
    ]
    static let edlRates: [String: Rational] = ["25fps.edl": Rational(25), "timecode_mismatch.edl": Rational(25)]

    static func fixtures() -> [String] {
        guard let otio = fixtureFolder("otio"), let edl = fixtureFolder("cmx3600-edl") else { return [] }
        return [otio, edl].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .filter { $0.hasSuffix(".otio") || $0.hasSuffix(".edl") }.map { folder.path + "/" + $0 }
        }
    }

    @Test(.enabled(if: !fixtures().isEmpty, "needs the otio and cmx3600-edl fixtures in ../shared/testdata"))
    func everyFixtureImportsLoadsAndRoundTrips() throws {
        let fixtures = Self.fixtures()
        #expect(fixtures.count == Self.expected.count)
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for path in fixtures {
            let name = (path as NSString).lastPathComponent
            let rate = path.hasSuffix(".edl") ? Self.edlRates[name] ?? Rational(24) : nil
            let (result, loaded) = try importAndLoad(path, rate: rate, folder: folder, name: name)
            let clips = result.timeline.tracks.map { $0.clipPlacements.count }
            let warnings = result.warnings.filter { !$0.message.hasPrefix("no file found") }
            print("\(name): \(clips) clips, \(result.media.count) media; \(warnings.count) warnings")
            for w in warnings.prefix(12) { print("  \(w.place.shortLocation): \(w.message)") }
            let expected = try #require(Self.expected[name], "\(name) is not in the table")
            #expect(clips == expected.clips, "\(name)")
            #expect(warnings.count == expected.warnings, "\(name)")
            // Every media name that found no file is a warning at its first use.
            #expect(result.warnings.filter { $0.message.hasPrefix("no file found") }.count == result.media.filter { !$0.found }.count, "\(name)")

            let (timeline, _) = try TimelineExport.timeline(loaded.project, layout: loaded.layout)
            let exported = folder + "/\(name).exported." + (path.hasSuffix(".edl") ? "edl" : "otio")
            let text = path.hasSuffix(".edl") ? try EDLWriter.text(timeline, videoTrack: 0).0 : OTIOWriter.json(timeline)
            try text.write(toFile: exported, atomically: true, encoding: .utf8)
            let again = try ProjectImport.run(path: exported, rate: rate, options: MediaOptions(), facts: FakeMediaFacts.noFiles,
                                              projectPath: folder + "/\(name).yaml")
            #expect(body(again.text) == body(result.text), "\(name): import → export → import changed the project")
        }
    }
}

extension Place {
    var shortLocation: String { line.map { "line \($0)" } ?? path ?? "" }
}
