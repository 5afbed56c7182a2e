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
    /// source's own frame). A 4:2:0 picture is blurred per plane, chroma with half the radius.
    /// Colours and missing pictures pass unchanged. Throws when a LUT file cannot be read.
    static func apply(_ looks: [Look], to picture: LayerPicture?, matrix: YCbCrMatrix, luts: LUTShelf = .shared) throws -> LayerPicture? {
        guard var result = picture, !looks.isEmpty else { return picture }
        if case .color = result { return result }
        for look in looks {
            switch look {
            case .blur(let radius):
                result = blur(result, radius: radius)
            case .color(let brightness, let contrast, let saturation, let temperature):
                let color = ColorLook(brightness: brightness, contrast: contrast, saturation: saturation, temperature: temperature)
                result = apply(color, to: result, matrix: matrix)
            case .lut(let file, let intensity):
                result = apply(LUTLook(lut: try luts.lut(at: file), intensity: intensity, matrix: matrix), to: result, matrix: matrix)
            case .chromaKey(let key):
                result = apply(ChromaKeyLook(key: key, matrix: matrix), to: result, matrix: matrix)
            }
        }
        return result
    }

    private static func apply(_ look: some PixelLook, to picture: LayerPicture, matrix: YCbCrMatrix) -> LayerPicture {
        switch picture {
        case .yuv(let frame): .yuv(PixelLooks.apply(look, to: frame))
        case .rgba(let image): .rgba(PixelLooks.apply(look, to: image, matrix: matrix))
        case .color: picture
        case .masked(let inner, let coverage): .masked(apply(look, to: inner, matrix: matrix), coverage)
        }
    }

    private static func blur(_ picture: LayerPicture, radius: Double) -> LayerPicture {
        guard radius > 0 else { return picture }
        switch picture {
        case .yuv(let frame):
            let out = YUVFrame(width: frame.width, height: frame.height)
            for plane in 0..<3 {
                let src = frame.plane(plane), dst = out.plane(plane)
                let chroma = plane > 0
                BoxBlur.blur(src.base, sourceStride: src.stride, into: dst.base, targetStride: dst.stride,
                             width: chroma ? frame.chromaWidth : frame.width, height: chroma ? frame.chromaHeight : frame.height,
                             channels: 1, radii: BoxBlur.radii(sigma: chroma ? radius / 2 : radius))
            }
            return .yuv(out)
        case .rgba(let image):
            let out = PremultipliedImage(width: image.width, height: image.height)
            BoxBlur.blur(image.pixels, sourceStride: image.stride, into: out.pixels, targetStride: out.stride,
                         width: image.width, height: image.height, channels: 4, radii: BoxBlur.radii(sigma: radius))
            return .rgba(out)
        case .color:
            return picture
        case .masked(let inner, let coverage):
            return .masked(blur(inner, radius: radius), coverage)
        }
    }
}
