import CompositionGraph
import MediaTime

/// A layer's filters at one frame's time: what the decoding stage applies to the layer's
/// picture before it is composited.
enum Look: Sendable {
    case blur(radius: Double)
    case color(brightness: Double, contrast: Double, saturation: Double, temperature: Double)
    case lut(file: String, intensity: Double)
    case chromaKey(ChromaKey.Values)

    init(_ filter: LayerFilter, at t: MediaTime) {
        switch filter {
        case .blur(let radius): self = .blur(radius: radius.value(at: t))
        case .color(let c):
            self = .color(brightness: c.brightness.value(at: t), contrast: c.contrast.value(at: t),
                          saturation: c.saturation.value(at: t), temperature: c.temperature.value(at: t))
        case .lut(let file, let intensity): self = .lut(file: file, intensity: intensity.value(at: t))
        case .chromaKey(let k):
            self = .chromaKey(ChromaKey.Values(color: k.color, similarity: k.similarity.value(at: t), softness: k.softness.value(at: t),
                                               spill: k.spill.value(at: t)))
        }
    }
}

enum LayerLooks {
    /// `picture` with `looks` applied in order, as new pixels (the fetched picture may be a
    /// source's own frame). Only `region` of the result is computed (the rest is left blank),
    /// exactly as in the whole picture: each look works on the region the looks after it need.
    /// A 4:2:0 picture is blurred per plane, chroma with half the radius. Colours and missing
    /// pictures pass unchanged. Throws when a LUT file cannot be read.
    static func apply(_ looks: [Look], to picture: LayerPicture?, within region: PictureRegion? = nil, matrix: YCbCrMatrix,
                      luts: LUTShelf = .shared) throws -> LayerPicture? {
        guard var result = picture, !looks.isEmpty, let size = result.pixelSize else { return picture }
        // needed[i]: the region look i must compute, for the looks after it.
        var needed = [region ?? PictureRegion(width: size.width, height: size.height)]
        for look in looks.dropFirst().reversed() {
            needed.insert(needed[0].grown(by: look.reach, within: size.width, size.height), at: 0)
        }
        for (look, region) in zip(looks, needed) {
            switch look {
            case .blur(let radius):
                result = blur(result, radius: radius, within: region)
            case .color(let brightness, let contrast, let saturation, let temperature):
                let color = ColorLook(brightness: brightness, contrast: contrast, saturation: saturation, temperature: temperature)
                result = apply(color, to: result, within: region, matrix: matrix)
            case .lut(let file, let intensity):
                result = apply(LUTLook(lut: try luts.lut(at: file), intensity: intensity, matrix: matrix), to: result, within: region, matrix: matrix)
            case .chromaKey(let key):
                result = apply(ChromaKeyLook(key: key, matrix: matrix), to: result, within: region, matrix: matrix)
            }
        }
        return result
    }

    private static func apply(_ look: some PixelLook, to picture: LayerPicture, within region: PictureRegion, matrix: YCbCrMatrix) -> LayerPicture {
        switch picture {
        case .yuv(let frame): .yuv(PixelLooks.apply(look, to: frame, within: region))
        case .rgba(let image): .rgba(PixelLooks.apply(look, to: image, within: region, matrix: matrix))
        case .color: picture
        case .masked(let inner, let coverage): .masked(apply(look, to: inner, within: region, matrix: matrix), coverage)
        }
    }

    private static func blur(_ picture: LayerPicture, radius: Double, within region: PictureRegion) -> LayerPicture {
        guard radius > 0 else { return picture }
        switch picture {
        case .yuv(let frame):
            let out = YUVFrame(width: frame.width, height: frame.height)
            // The blur reads `reach` pixels around what it writes.
            let source = region.grown(by: Look.blur(radius: radius).reach, within: frame.width, frame.height)
            for plane in 0..<3 {
                let chroma = plane > 0
                let from = chroma ? source.chroma : source
                let src = frame.plane(plane), dst = out.plane(plane)
                BoxBlur.blur(src.base + from.y0 * src.stride + from.x0, sourceStride: src.stride,
                             into: dst.base + from.y0 * dst.stride + from.x0, targetStride: dst.stride,
                             width: from.width, height: from.height, channels: 1, radii: BoxBlur.radii(sigma: chroma ? radius / 2 : radius))
            }
            return .yuv(out)
        case .rgba(let image):
            let out = PremultipliedImage(width: image.width, height: image.height)
            let from = region.grown(by: Look.blur(radius: radius).reach, within: image.width, image.height)
            BoxBlur.blur(image.pixels + from.y0 * image.stride + 4 * from.x0, sourceStride: image.stride,
                         into: out.pixels + from.y0 * out.stride + 4 * from.x0, targetStride: out.stride,
                         width: from.width, height: from.height, channels: 4, radii: BoxBlur.radii(sigma: radius))
            return .rgba(out)
        case .color:
            return picture
        case .masked(let inner, let coverage):
            return .masked(blur(inner, radius: radius, within: region), coverage)
        }
    }
}

extension Look {
    /// How far from a pixel the look reads, in luma pixels: a blur's three boxes (its chroma
    /// boxes, at half the radius, reach as far in luma pixels); none for the per-pixel looks.
    var reach: Int {
        guard case .blur(let radius) = self else { return 0 }
        return max(BoxBlur.radii(sigma: radius).reduce(0, +), 2 * BoxBlur.radii(sigma: radius / 2).reduce(0, +))
    }
}

extension LayerPicture {
    /// The picture's size in pixels; nil for a colour.
    var pixelSize: PixelSize? {
        switch self {
        case .yuv(let frame): PixelSize(width: frame.width, height: frame.height)
        case .rgba(let image): PixelSize(width: image.width, height: image.height)
        case .color: nil
        case .masked(let inner, _): inner.pixelSize
        }
    }
}
