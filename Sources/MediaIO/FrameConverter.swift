internal import CFFmpeg

/// The scaling filter used when the size changes (the format-only case uses it for chroma).
public enum Scaler: String, Hashable, Sendable, Codable {
    case bilinear, bicubic, lanczos

    var swsFlag: Int32 {
        switch self {
        case .bilinear: SWS_BILINEAR
        case .bicubic: SWS_BICUBIC
        case .lanczos: SWS_LANCZOS
        }
    }
}

/// Converts pictures with one reused `SwsContext` (`SWS_BITEXACT | SWS_ACCURATE_RND`, so the
/// result does not depend on the CPU), honouring the source's and target's matrix and range.
final class FrameConverter {
    private var context: OpaquePointer?
    /// The conversion the context's colour details were last set for.
    private struct Setup: Equatable {
        var sourceMatrix, sourceFull, targetMatrix, targetFull: Int32
        var sourceWidth, sourceHeight, sourceFormat, targetWidth, targetHeight, targetFormat: Int32
    }
    private var setup: Setup?
    let scaler: Scaler
    let fullChromaInterpolation: Bool

    init(scaler: Scaler, fullChromaInterpolation: Bool = false) {
        self.scaler = scaler
        self.fullChromaInterpolation = fullChromaInterpolation
    }

    deinit { sws_freeContext(context) }

    /// Converts `source` (colour space `sourceColor`) into `target`, whose size, format and
    /// colour tags are already set.
    func convert(_ source: UnsafeMutablePointer<AVFrame>, _ sourceColor: ColorSpace,
                 into target: UnsafeMutablePointer<AVFrame>, _ targetColor: ColorSpace, _ site: FFmpegCallSite) throws {
        let sourceFormat = withoutJPEGRange(AVPixelFormat(rawValue: source.pointee.format))
        let targetFormat = AVPixelFormat(rawValue: target.pointee.format)
        // Full-chroma interpolation (SWS_FULL_CHR_H_INT) doubles the cost of YUV → RGB at 1080p
        // (measured 81 vs 40 ms a frame); the scaler's chroma filter is good enough for reading,
        // and a caller that needs RGB within a level of the source (compositing) asks for it.
        let rgbEnds = PixelFormat(sourceFormat).isRGB || PixelFormat(targetFormat).isRGB
        let chroma = fullChromaInterpolation && rgbEnds ? SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP : 0
        let flags = scaler.swsFlag | SWS_BITEXACT | SWS_ACCURATE_RND | chroma
        _ = FFmpeg.setUp
        context = sws_getCachedContext(context, source.pointee.width, source.pointee.height, sourceFormat,
                                       target.pointee.width, target.pointee.height, targetFormat, flags, nil, nil, nil)
        guard let context else {
            throw MediaError(.unsupportedSettings, path: site.path,
                             "cannot convert \(PixelFormat(sourceFormat)) \(source.pointee.width)x\(source.pointee.height) to "
                             + "\(PixelFormat(targetFormat)) \(target.pointee.width)x\(target.pointee.height)",
                             stream: site.stream, time: site.time, call: "sws_getCachedContext")
        }
        let sourceRGB = PixelFormat(sourceFormat).isRGB, targetRGB = PixelFormat(targetFormat).isRGB
        let sourceFull: Int32 = sourceRGB || sourceColor.range == .full ? 1 : 0
        let targetFull: Int32 = targetRGB || targetColor.range == .full ? 1 : 0
        let key = Setup(sourceMatrix: Int32(sourceColor.avMatrix.rawValue), sourceFull: sourceFull,
                        targetMatrix: Int32(targetColor.avMatrix.rawValue), targetFull: targetFull,
                        sourceWidth: source.pointee.width, sourceHeight: source.pointee.height,
                        sourceFormat: sourceFormat.rawValue, targetWidth: target.pointee.width,
                        targetHeight: target.pointee.height, targetFormat: targetFormat.rawValue)
        if key != setup {
            // sws_getCachedContext may have made a new context: set the colour details again.
            sws_setColorspaceDetails(context, sws_getCoefficients(Int32(sourceColor.avMatrix.rawValue)), sourceFull,
                                     sws_getCoefficients(Int32(targetColor.avMatrix.rawValue)), targetFull,
                                     0, 1 << 16, 1 << 16)
            setup = key
        }
        let sourceData = UnsafeRawPointer(source.planeData).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let rows = sws_scale(context, sourceData, source.lineSizes, 0, source.pointee.height,
                             target.planeData, target.lineSizes)
        try FFmpeg.check(rows, "sws_scale", site, .decodingFailed, "cannot convert the picture")
    }
}

/// Converts frames to another size, format or colour space, with the reader's swscale settings
/// (bit-exact, accurate rounding, the source's matrix and range honoured), reusing one context
/// while the conversion stays the same: for callers whose target size changes from frame to
/// frame (animated layers). Use from one thread at a time.
public final class VideoFrameConverter {
    private let converter: FrameConverter

    /// `fullChromaInterpolation` makes conversions to and from RGB interpolate chroma at full
    /// resolution: within a level of the source in saturated colours, at twice the cost.
    public init(scaler: Scaler = .bicubic, fullChromaInterpolation: Bool = false) {
        converter = FrameConverter(scaler: scaler, fullChromaInterpolation: fullChromaInterpolation)
    }

    /// Converts `source` into `target`, typically from a `VideoFramePool`: the target's size,
    /// format and colour space say what to make.
    public func convert(_ source: VideoFrame, into target: VideoFrame) throws {
        let site = FFmpegCallSite(path: "(frame at \(source.time), \(source.width)x\(source.height) \(source.pixelFormat))")
        try converter.convert(source.frame.pointer, source.colorSpace, into: target.frame.pointer, target.colorSpace, site)
    }
}

extension VideoFrame {
    /// Multiplies colour by alpha in place (8-bit `rgba`/`bgra` frames the caller owns).
    public func premultiplyAlpha() {
        precondition(pixelFormat == .rgba || pixelFormat == .bgra, "premultiply needs 8-bit rgba or bgra")
        let p = plane(0)
        for y in 0..<p.height {
            let row = (p.baseAddress + y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<p.width {
                let px = row + 4 * x
                let a = UInt32(px[3])
                if a == 255 { continue }
                px[0] = UInt8((UInt32(px[0]) * a + 127) / 255)
                px[1] = UInt8((UInt32(px[1]) * a + 127) / 255)
                px[2] = UInt8((UInt32(px[2]) * a + 127) / 255)
            }
        }
    }
}
