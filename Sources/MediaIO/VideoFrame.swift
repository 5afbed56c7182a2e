internal import CFFmpeg
import MediaTime

/// A picture: its planes, format, colour space and the exact source time it was shown at.
///
/// Owns its memory (an FFmpeg reference-counted buffer, often recycled through a pool when the
/// frame is released). Frames a reader returns are shared with its cache: read them, do not
/// write into them. Frames made with `init(width:height:pixelFormat:colorSpace:)` or a
/// `VideoFramePool` are the caller's to fill.
///
/// @unchecked: it owns an FFmpeg frame (a C pointer); once made and filled it is only read.
public final class VideoFrame: @unchecked Sendable {
    let frame: Frame
    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    /// How YUV values map to colour (RGB frames: ignored, always full range).
    public let colorSpace: ColorSpace
    /// Presentation time in the source, counted from the file's time zero (`MediaInfo.timeZero`).
    public let time: MediaTime

    /// One plane of pixels: `height` rows of `bytesPerRow` bytes (rows may be padded).
    public struct Plane {
        public let baseAddress: UnsafeMutableRawPointer
        public let bytesPerRow: Int
        /// Width and height of this plane in pixels (chroma planes are smaller for 4:2:0).
        public let width: Int
        public let height: Int
    }

    init(frame: Frame, time: MediaTime, colorSpace: ColorSpace) {
        self.frame = frame
        let f = frame.pointer.pointee
        width = Int(f.width)
        height = Int(f.height)
        pixelFormat = PixelFormat(AVPixelFormat(rawValue: f.format))
        self.colorSpace = colorSpace
        self.time = time
    }

    /// A new blank (zeroed) frame to draw into. Allocates; use a `VideoFramePool` per frame.
    public convenience init(width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace = .bt709,
                            time: MediaTime = .zero) throws {
        let pool = try VideoFramePool(width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace)
        let frame = try pool.makeAVFrame()
        self.init(frame: frame, time: time, colorSpace: colorSpace)
    }

    public var planeCount: Int { pixelFormat.planeCount }

    /// Plane `index`; its memory lives as long as this frame (keep the frame alive while using
    /// it, e.g. inside `withPlanes`).
    public func plane(_ index: Int) -> Plane {
        precondition(index >= 0 && index < planeCount, "plane \(index) of a \(pixelFormat) frame")
        let shift = pixelFormat.chromaShift
        let chroma = !pixelFormat.isRGB && (index == 1 || index == 2)
        let w = chroma ? -((-width) >> shift.x) : width
        let h = chroma ? -((-height) >> shift.y) : height
        return Plane(baseAddress: UnsafeMutableRawPointer(frame.pointer.planeData[index]!),
                     bytesPerRow: Int(frame.pointer.lineSizes[index]), width: w, height: h)
    }

    /// The visible bytes of plane `index`, row after row without padding.
    public func packedBytes(plane index: Int) -> [UInt8] {
        withExtendedLifetime(self) {
            let p = plane(index)
            let rowBytes = p.width * bytesPerPixel(plane: index)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(rowBytes * p.height)
            for y in 0..<p.height {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: p.baseAddress + y * p.bytesPerRow, count: rowBytes))
            }
            return bytes
        }
    }

    /// Calls `body` with the planes while the frame is certainly alive.
    public func withPlanes<R>(_ body: ([Plane]) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body((0..<planeCount).map(plane)) }
    }

    /// A frame sharing `source`'s pixels (a new reference, no copy).
    convenience init(referencing source: Frame, time: MediaTime, colorSpace: ColorSpace) throws {
        let site = FFmpegCallSite(path: "(frame at \(time))")
        let reference = try Frame(site)
        try FFmpeg.check(av_frame_ref(reference.pointer, source.pointer), "av_frame_ref", site, .outOfMemory,
                         "cannot reference a frame")
        self.init(frame: reference, time: time, colorSpace: colorSpace)
    }
}

/// Recycles frame buffers of one size and format (an `AVBufferPool`): a frame's memory returns
/// to the pool when the last `VideoFrame` using it is released, so steady-state reading and
/// rendering allocate no pixel memory. Thread-safe.
///
/// @unchecked: it owns an `AVBufferPool` (a C pointer, thread-safe in FFmpeg); its layout is set in `init` only.
public final class VideoFramePool: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    public let colorSpace: ColorSpace
    private let pool: OpaquePointer
    private var lineSizes: [Int32] = [0, 0, 0, 0]
    private var offsets: [Int] = [0, 0, 0, 0]

    public init(width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace = .bt709) throws {
        let site = FFmpegCallSite(path: "(\(width)x\(height) \(pixelFormat) frame)")
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            throw MediaError(.invalidArgument, path: site.path, "frame size must be 1…32768 pixels each way")
        }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.colorSpace = colorSpace
        // Rows padded to 64 pixels so every plane's rows start 32-byte aligned for SIMD.
        let paddedWidth = Int32((width + 63) & ~63)
        try FFmpeg.check(av_image_fill_linesizes(&lineSizes, pixelFormat.av, paddedWidth), "av_image_fill_linesizes",
                         site, .invalidArgument, "unsupported frame format")
        var sizes = [Int](repeating: 0, count: 4)
        let strides = lineSizes.map { Int($0) }
        try FFmpeg.check(av_image_fill_plane_sizes(&sizes, pixelFormat.av, Int32(height), strides),
                         "av_image_fill_plane_sizes", site, .invalidArgument, "unsupported frame format")
        var total = 0
        for i in 0..<4 where sizes[i] > 0 {
            offsets[i] = total
            total += (sizes[i] + 63) & ~63
        }
        // Extra bytes at the end: swscale's SIMD may read a little past the last row.
        pool = try FFmpeg.allocated(av_buffer_pool_init(total + 64, av_buffer_allocz), "av_buffer_pool_init", site)
    }

    deinit {
        var p: OpaquePointer? = pool
        av_buffer_pool_uninit(&p) // frees once the last buffer handed out is released
    }

    /// A frame from the pool (contents undefined: a recycled buffer keeps old pixels).
    public func makeFrame(time: MediaTime = .zero) throws -> VideoFrame {
        VideoFrame(frame: try makeAVFrame(), time: time, colorSpace: colorSpace)
    }

    func makeAVFrame() throws -> Frame {
        let site = FFmpegCallSite(path: "(\(width)x\(height) \(pixelFormat) frame)")
        let frame = try Frame(site)
        let f = frame.pointer
        let buffer = try FFmpeg.allocated(av_buffer_pool_get(pool), "av_buffer_pool_get", site)
        f.pointee.buf.0 = buffer
        for i in 0..<4 {
            f.planeData[i] = lineSizes[i] > 0 ? buffer.pointee.data + offsets[i] : nil
            f.lineSizes[i] = lineSizes[i]
        }
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = pixelFormat.av.rawValue
        f.pointee.colorspace = colorSpace.avMatrix
        f.pointee.color_range = pixelFormat.isRGB ? AVCOL_RANGE_JPEG : colorSpace.avRange
        f.pointee.color_primaries = colorSpace.avPrimaries
        f.pointee.color_trc = colorSpace.avTransfer
        return frame
    }
}
