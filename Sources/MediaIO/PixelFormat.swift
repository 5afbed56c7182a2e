internal import CFFmpeg

/// A pixel layout, by FFmpeg's name (`yuv420p`, `rgba`, `yuv420p10le`, …). Readers return
/// frames in any format FFmpeg has; the common ones have constants.
public struct PixelFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    public let name: String

    /// nil when FFmpeg does not know the name.
    public init?(name: String) {
        guard av_get_pix_fmt(name) != AV_PIX_FMT_NONE else { return nil }
        self.name = name
    }

    init(_ format: AVPixelFormat) { name = String(cString: av_get_pix_fmt_name(format)) }

    /// 8-bit Y, U, V planes, chroma halved both ways.
    public static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)
    /// `yuv420p` with a full-size alpha plane (straight alpha, 0 transparent … 255 opaque).
    public static let yuva420p = PixelFormat(AV_PIX_FMT_YUVA420P)
    public static let yuv444p = PixelFormat(AV_PIX_FMT_YUV444P)
    public static let yuv420p10 = PixelFormat(AV_PIX_FMT_YUV420P10LE)
    /// Packed 8-bit R, G, B, A bytes; alpha straight unless the reader is asked to premultiply.
    public static let rgba = PixelFormat(AV_PIX_FMT_RGBA)
    /// Packed 8-bit B, G, R, A bytes (Cairo's ARGB32 memory order on little-endian machines).
    public static let bgra = PixelFormat(AV_PIX_FMT_BGRA)
    /// Packed 8-bit R, G, B bytes.
    public static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    public static let gray = PixelFormat(AV_PIX_FMT_GRAY8)

    public var description: String { name }

    var av: AVPixelFormat { av_get_pix_fmt(name) }
    var descriptor: UnsafePointer<AVPixFmtDescriptor> { av_pix_fmt_desc_get(av)! }

    public var planeCount: Int { Int(av_pix_fmt_count_planes(av)) }
    public var hasAlpha: Bool { (descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA)) != 0 }
    public var isRGB: Bool { (descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB)) != 0 }
    /// Bits per component of the first component (8 for yuv420p and rgba, 10 for yuv420p10).
    public var bitsPerComponent: Int { Int(descriptor.pointee.comp.0.depth) }
    /// log2 of the chroma subsampling (1, 1 for 4:2:0).
    var chromaShift: (x: Int, y: Int) { (Int(descriptor.pointee.log2_chroma_w), Int(descriptor.pointee.log2_chroma_h)) }
}

/// Which standard the YUV values follow: matrix, and for writing also primaries and transfer.
public enum ColorStandard: String, Hashable, Sendable, Codable {
    case bt601, bt709, bt2020
}

/// Limited ("tv", 16–235) or full ("pc", 0–255) range.
public enum ColorRange: String, Hashable, Sendable, Codable {
    case limited, full
}

/// How YUV values map to colour: the standard and the range. RGB frames are always full range.
public struct ColorSpace: Hashable, Sendable, Codable, CustomStringConvertible {
    public var standard: ColorStandard
    public var range: ColorRange

    public init(_ standard: ColorStandard, _ range: ColorRange = .limited) {
        self.standard = standard
        self.range = range
    }

    public static let bt709 = ColorSpace(.bt709)
    public static let bt601 = ColorSpace(.bt601)

    public var description: String { "\(standard.rawValue) \(range.rawValue)" }

    var avMatrix: AVColorSpace {
        switch standard {
        case .bt601: AVCOL_SPC_SMPTE170M
        case .bt709: AVCOL_SPC_BT709
        case .bt2020: AVCOL_SPC_BT2020_NCL
        }
    }

    var avPrimaries: AVColorPrimaries {
        switch standard {
        case .bt601: AVCOL_PRI_SMPTE170M
        case .bt709: AVCOL_PRI_BT709
        case .bt2020: AVCOL_PRI_BT2020
        }
    }

    var avTransfer: AVColorTransferCharacteristic {
        switch standard {
        case .bt601: AVCOL_TRC_SMPTE170M
        case .bt709: AVCOL_TRC_BT709
        case .bt2020: AVCOL_TRC_BT2020_10
        }
    }

    var avRange: AVColorRange { range == .full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }

    /// The colour space of a decoded frame: its tags, else what players assume (BT.709 from
    /// 720 lines or 1280 columns up, BT.601 below; limited range, full for `yuvj` formats).
    init(of frame: UnsafePointer<AVFrame>) {
        let f = frame.pointee
        let standard: ColorStandard = switch f.colorspace {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: .bt2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG, AVCOL_SPC_FCC, AVCOL_SPC_SMPTE240M: .bt601
        default: (f.height >= 720 || f.width >= 1280) ? .bt709 : .bt601
        }
        let format = AVPixelFormat(rawValue: f.format)
        let jpeg = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P].contains(format)
        self.init(standard, f.color_range == AVCOL_RANGE_JPEG || jpeg ? .full : .limited)
    }
}

/// `yuvj*` formats are their `yuv*` twins at full range; swscale wants the twin.
func withoutJPEGRange(_ format: AVPixelFormat) -> AVPixelFormat {
    switch format {
    case AV_PIX_FMT_YUVJ420P: AV_PIX_FMT_YUV420P
    case AV_PIX_FMT_YUVJ422P: AV_PIX_FMT_YUV422P
    case AV_PIX_FMT_YUVJ444P: AV_PIX_FMT_YUV444P
    case AV_PIX_FMT_YUVJ440P: AV_PIX_FMT_YUV440P
    default: format
    }
}
