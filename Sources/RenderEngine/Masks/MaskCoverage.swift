import CompositionGraph
import MediaTime
import OverlayRendering

/// Makes the coverage plane of each masked layer of a frame, on the decoding thread: shapes
/// drawn by Cairo, mattes decoded at the render size (their luma or alpha). A shape that did
/// not change since the last frame of the same track reuses its plane.
final class MaskCoverage {
    let renderSize: PixelSize
    private let pool: VideoSourcePool
    private var lastOutlines: [Int: (mask: PlannedMask, plane: CoveragePlane)] = [:]

    init(renderSize: PixelSize, pool: VideoSourcePool) {
        self.renderSize = renderSize
        self.pool = pool
    }

    /// The reader a matte shown on `trackID` is read with: its own, apart from the track's
    /// own reader of the same file (track ids are positive).
    static func matteTrackID(forLayerOn trackID: Int) -> Int { -trackID }

    func plane(for mask: PlannedMask, trackID: Int) throws -> CoveragePlane {
        let w = renderSize.width, h = renderSize.height
        switch mask {
        case .outline(let outline, let feather, let invert):
            if let last = lastOutlines[trackID], last.mask == mask { return last.plane }
            var bytes = outline.coverage(width: w, height: h, feather: feather)
            if invert { Self.invert(&bytes) }
            let plane = CoveragePlane(width: w, height: h, bytes: bytes)
            lastOutlines[trackID] = (mask, plane)
            return plane
        case .matte(let ref, let t, let channel, let feather, let invert):
            let source = try pool.source(ref, trackID: Self.matteTrackID(forLayerOn: trackID))
            var bytes: [UInt8]
            switch channel {
            case .luma: bytes = Self.coverage(ofLuma: try source.yuvFrame(at: t, width: w, height: h))
            case .alpha: bytes = Self.coverage(ofAlpha: try source.rgbaFrame(at: t, width: w, height: h))
            }
            MaskOutline.feather(&bytes, width: w, height: h, by: feather)
            if invert { Self.invert(&bytes) }
            return CoveragePlane(width: w, height: h, bytes: bytes)
        }
    }

    /// Limited-range luma as coverage: Y′ 16 (black) and below → 0, Y′ 235 (white) and above
    /// → 255, linear between, rounded.
    static func coverage(ofLuma frame: YUVFrame) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: frame.width * frame.height)
        let (plane, stride) = frame.plane(0)
        for y in 0..<frame.height {
            let row = plane + y * stride
            for x in 0..<frame.width {
                let luma = min(max(Int(row[x]), 16), 235) - 16
                bytes[y * frame.width + x] = UInt8((luma * 255 + 109) / 219)
            }
        }
        return bytes
    }

    static func coverage(ofAlpha image: PremultipliedImage) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            let row = image.pixels + y * image.stride
            for x in 0..<image.width { bytes[y * image.width + x] = row[4 * x + 3] }
        }
        return bytes
    }

    private static func invert(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = 255 &- bytes[i] }
    }
}
