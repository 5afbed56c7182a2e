internal import CFFmpeg
import MediaIO

/// Scales and converts a decoded picture (any FFmpeg pixel format, any matrix and range)
/// to the compositor's formats with libswscale: bicubic, `SWS_BITEXACT | SWS_ACCURATE_RND`
/// so every CPU gets the same bytes, the source's matrix and range honoured, BT.709
/// limited range out for Y′CbCr, full range for RGBA.
///
/// MediaIO's `VideoReader` fixes its output size when it is opened; layers whose size
/// animates need a size per frame, so this works on the reader's native frames through
/// their public planes. One context is reused while the conversion stays the same.
final class SourceScaler {
    private var context: OpaquePointer?
    private struct Setup: Equatable {
        var sourceWidth: Int32, sourceHeight: Int32, sourceFormat: Int32
        var targetWidth: Int32, targetHeight: Int32, targetFormat: Int32
        var sourceMatrix: Int32, sourceFull: Int32
    }
    private var setup: Setup?

    deinit { sws_freeContext(context) }

    enum Target { case yuv420p(YUVFrame), rgba(RGBAImage) }

    /// Converts `source` into `target` (whose size is the scaled size).
    func convert(_ source: VideoFrame, into target: Target, path: String) throws {
        let sourceFormat = av_get_pix_fmt(source.pixelFormat.name)
        let full: Int32 = source.colorSpace.range == .full ? 1 : 0
        let (width, height, format): (Int, Int, AVPixelFormat) = switch target {
        case .yuv420p(let f): (f.width, f.height, AV_PIX_FMT_YUV420P)
        case .rgba(let i): (i.width, i.height, AV_PIX_FMT_RGBA)
        }
        let wanted = Setup(sourceWidth: Int32(source.width), sourceHeight: Int32(source.height), sourceFormat: sourceFormat.rawValue,
                           targetWidth: Int32(width), targetHeight: Int32(height), targetFormat: format.rawValue,
                           sourceMatrix: Self.swsMatrix(source.colorSpace.standard), sourceFull: full)
        if wanted != setup {
            context = sws_getCachedContext(context, wanted.sourceWidth, wanted.sourceHeight, Self.withoutJPEGRange(sourceFormat),
                                           wanted.targetWidth, wanted.targetHeight, format,
                                           Self.flags(rgb: format == AV_PIX_FMT_RGBA), nil, nil, nil)
            guard let context else {
                throw RenderError.invalid("\(path): libswscale cannot convert \(source.width)x\(source.height) \(source.pixelFormat) to \(width)x\(height)")
            }
            let targetFull: Int32 = format == AV_PIX_FMT_RGBA ? 1 : 0
            sws_setColorspaceDetails(context, sws_getCoefficients(wanted.sourceMatrix), full,
                                     sws_getCoefficients(SWS_CS_ITU709), targetFull, 0, 1 << 16, 1 << 16)
            setup = wanted
        }
        try withExtendedLifetime(source) {
            var srcData: [UnsafePointer<UInt8>?] = [nil, nil, nil, nil]
            var srcStride: [Int32] = [0, 0, 0, 0]
            for i in 0..<min(source.planeCount, 4) {
                let p = source.plane(i)
                srcData[i] = UnsafePointer(p.baseAddress.assumingMemoryBound(to: UInt8.self))
                srcStride[i] = Int32(p.bytesPerRow)
            }
            var dstData: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil, nil]
            var dstStride: [Int32] = [0, 0, 0, 0]
            switch target {
            case .yuv420p(let f):
                for i in 0..<3 {
                    let p = f.plane(i)
                    dstData[i] = p.base
                    dstStride[i] = Int32(p.stride)
                }
            case .rgba(let image):
                dstData[0] = image.baseAddress
                dstStride[0] = Int32(image.stride)
            }
            let rows = sws_scale(context, srcData, srcStride, 0, Int32(source.height), dstData, dstStride)
            guard rows > 0 else {
                throw RenderError.invalid("\(path): libswscale failed to convert a \(source.width)x\(source.height) \(source.pixelFormat) frame")
            }
        }
    }

    /// RGB output also interpolates chroma at full resolution: swscale's default RGB path
    /// upsamples chroma by pixel doubling and is 2–3 levels off in saturated colours.
    private static func flags(rgb: Bool) -> Int32 {
        SWS_BICUBIC | SWS_BITEXACT | SWS_ACCURATE_RND | (rgb ? SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP : 0)
    }

    private static func swsMatrix(_ standard: ColorStandard) -> Int32 {
        switch standard {
        case .bt601: SWS_CS_ITU601
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        }
    }

    /// swscale wants `yuvj*` formats as their `yuv*` twins (the range is set separately).
    private static func withoutJPEGRange(_ format: AVPixelFormat) -> AVPixelFormat {
        switch format {
        case AV_PIX_FMT_YUVJ420P: AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_YUVJ422P: AV_PIX_FMT_YUV422P
        case AV_PIX_FMT_YUVJ444P: AV_PIX_FMT_YUV444P
        default: format
        }
    }
}
