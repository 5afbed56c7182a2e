@testable import MediaIO
import TestSupport
import Testing

/// FFmpeg's code paths are the same on every CPU: after the set-up every entry into FFmpeg
/// makes, none of the AVX-family flags is left (on a machine without AVX there were none).
@Suite struct FFmpegSetUpTests {
    @Test func ffmpegRunsWithoutItsAVXFamily() throws {
        _ = try VideoReader(path: try MediaFactory.file("setup-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=0.2"]))
        #expect(FFmpeg.portableCPUFlags(FFmpeg.cpuFlags) == FFmpeg.cpuFlags)
        // The mask keeps the SSE family and clears the AVX family: 0x8 is SSE2, 0x4000 AVX.
        #expect(FFmpeg.portableCPUFlags(0x8 | 0x4000) == 0x8)
    }
}
