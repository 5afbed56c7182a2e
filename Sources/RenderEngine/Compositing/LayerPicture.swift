import CompositionGraph

/// The pixels fetched for one planned layer.
enum LayerPicture: Sendable {
    /// For the Y′CbCr path: the source already scaled to its placed rectangle's size. For the
    /// general path: an opaque source at the placement's `scaledPixelSize` (or any size; it
    /// is stretched over the fitted box).
    case yuv(YUVFrame)
    /// For the general path: a source with an alpha channel, as `yuv` but premultiplied R′G′B′A.
    case rgba(PremultipliedImage)
    case color(Color)
    /// For the general path: a picture shown only where a mask covers it.
    indirect case masked(LayerPicture, CoveragePlane)
}

/// What the decoding stage must deliver for a layer of a plan.
enum PictureRequest: Equatable, Sendable {
    case yuv(width: Int, height: Int)
    case rgba(width: Int, height: Int)
    case none

    /// The picture a layer needs: Y′CbCr at its placed size on the rectangular path; at its
    /// scaled size otherwise, as R′G′B′A when the source has an alpha channel; colours need
    /// no pixels.
    static func forLayer(_ layer: PlannedLayer, rectangular: Bool, renderSize: PixelSize) -> PictureRequest {
        if case .color = layer.content { return .none }
        if rectangular {
            guard let rect = layer.placement.rectangle(in: renderSize) else { return .none }
            return .yuv(width: rect.sourceWidth, height: rect.sourceHeight)
        }
        let size = layer.placement.scaledPixelSize
        return layer.hasAlpha ? .rgba(width: size.width, height: size.height) : .yuv(width: size.width, height: size.height)
    }
}
