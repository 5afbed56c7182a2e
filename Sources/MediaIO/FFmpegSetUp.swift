internal import CFFmpeg

extension FFmpeg {
    /// Done once, before FFmpeg's first demuxer, codec, resampler or scaler: FFmpeg's log goes
    /// to the per-thread "last error line" instead of stderr, and FFmpeg runs the same code on
    /// every x86-64 CPU (`portableCPUFlags`). Every entry into FFmpeg touches it.
    static let setUp: Void = {
        _ = installLogCallback
        av_force_cpu_flags(portableCPUFlags(av_get_cpu_flags()))
    }()

    /// The CPU's flags without FFmpeg's AVX family. Its AVX, AVX2, FMA and AVX-512 versions of
    /// float code (the audio resampler's filter, float vector maths, transforms) add in another
    /// order or fuse multiply and add, so their results differ in the last bits from the SSE
    /// versions that every x86-64 CPU has: a 44.1 kHz source resampled to 48 kHz gave other
    /// samples on a CPU without AVX. The SSE versions of everything run instead (their integer
    /// code is bit-exact whichever version runs); docs/render.md gives the price.
    static func portableCPUFlags(_ detected: Int32) -> Int32 {
        let avxFamily = AV_CPU_FLAG_AVX | AV_CPU_FLAG_AVXSLOW | AV_CPU_FLAG_AVX2 | AV_CPU_FLAG_FMA3 | AV_CPU_FLAG_FMA4
            | AV_CPU_FLAG_XOP | AV_CPU_FLAG_AVX512 | AV_CPU_FLAG_AVX512ICL
        return detected & ~Int32(avxFamily)
    }

    /// The flags FFmpeg's code runs with now (for tests).
    static var cpuFlags: Int32 { av_get_cpu_flags() }
}
