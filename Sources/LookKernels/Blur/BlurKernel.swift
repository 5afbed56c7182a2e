import Looks

extension LookKernel {
    /// `Look.blur`'s pixels; none at radius 0.
    static let blur = LookKernel(.blur) { settings in
        let sigma = settings.number("radius")
        return sigma > 0 ? BlurKernel(sigma: sigma) : nil
    }
}

/// `{ type: blur }` at one instant: three box blurs (`BoxBlur`) of standard deviation `sigma`.
/// A 4:2:0 picture is blurred per plane, chroma with half the radius; an R′G′B′A picture
/// (premultiplied) on its four channels.
struct BlurKernel: PictureLook {
    let sigma: Double

    /// The three boxes' reach (the chroma boxes, at half the radius, reach as far in luma pixels).
    var reach: Int {
        max(BoxBlur.radii(sigma: sigma).reduce(0, +), 2 * BoxBlur.radii(sigma: sigma / 2).reduce(0, +))
    }

    /// Blurs the area `reach` pixels around `region` (its edges extended): each pixel of `region` reads only inside it.
    func apply(_ pixels: LookPixels, within region: PictureRegion) {
        switch pixels {
        case .yuv420(let source, let target, let width, let height):
            let area = region.grown(by: reach, within: width, height)
            for plane in 0..<3 {
                let chroma = plane > 0
                let from = chroma ? area.chroma : area
                let src = source[plane], dst = target[plane]
                BoxBlur.blur(src.base + from.y0 * src.stride + from.x0, sourceStride: src.stride,
                             into: dst.base + from.y0 * dst.stride + from.x0, targetStride: dst.stride,
                             width: from.width, height: from.height, channels: 1, radii: BoxBlur.radii(sigma: chroma ? sigma / 2 : sigma))
            }
        case .rgba(let source, let target, let width, let height):
            let from = region.grown(by: reach, within: width, height)
            BoxBlur.blur(source.base + from.y0 * source.stride + 4 * from.x0, sourceStride: source.stride,
                         into: target.base + from.y0 * target.stride + 4 * from.x0, targetStride: target.stride,
                         width: from.width, height: from.height, channels: 4, radii: BoxBlur.radii(sigma: sigma))
        }
    }
}
