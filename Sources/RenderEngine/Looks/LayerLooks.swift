import CompositionGraph
import LookKernels
import Looks
import MediaTime

enum LayerLooks {
    /// `picture` with `filters` at time `t` applied in order, as new pixels (the fetched
    /// picture may be a source's own frame). Only `region` of the result is computed (the rest
    /// is left blank), exactly as in the whole picture: each look works on the region the
    /// looks after it need. Colours and missing pictures pass unchanged. Throws when a LUT file
    /// cannot be read.
    static func apply(_ filters: [LayerFilter], at t: MediaTime, to picture: LayerPicture?, within region: PictureRegion? = nil,
                      luts: LUTShelf = .shared) throws -> LayerPicture? {
        guard var result = picture, !filters.isEmpty, let size = result.pixelSize else { return picture }
        let looks = try filters.map { LookKernel.of($0.look).prepare(try settings($0, at: t, luts: luts)) }
        // needed[i]: the region look i must compute, for the looks after it.
        var needed = [region ?? PictureRegion(width: size.width, height: size.height)]
        for look in looks.dropFirst().reversed() {
            needed.insert(needed[0].grown(by: look?.reach ?? 0, within: size.width, size.height), at: 0)
        }
        for case (let look?, let region) in zip(looks, needed) {
            result = apply(look, to: result, within: region)
        }
        return result
    }

    /// A filter's values at `t`: numbers there, colours as the output's Y′CbCr, LUT files read and prepared.
    private static func settings(_ filter: LayerFilter, at t: MediaTime, luts: LUTShelf) throws -> LookSettings {
        LookSettings(try filter.values.mapValues { value in
            switch value {
            case .number(let animation): .number(animation.value(at: t))
            case .color(let color): .color(YCbCrMatrix.bt709.yuv(of: color))
            case .lut(let file): .lut(try luts.lut(at: file))
            }
        })
    }

    private static func apply(_ look: any PictureLook, to picture: LayerPicture, within region: PictureRegion) -> LayerPicture {
        switch picture {
        case .yuv(let frame):
            let out = YUVFrame(width: frame.width, height: frame.height)
            look.apply(.yuv420(source: (0..<3).map(frame.plane), target: (0..<3).map(out.plane), width: frame.width, height: frame.height),
                       within: region)
            return .yuv(out)
        case .rgba(let image):
            let out = PremultipliedImage(width: image.width, height: image.height)
            look.apply(.rgba(source: (image.pixels, image.stride), target: (out.pixels, out.stride), width: image.width, height: image.height),
                       within: region)
            return .rgba(out)
        case .color:
            return picture
        case .masked(let inner, let coverage):
            return .masked(apply(look, to: inner, within: region), coverage)
        }
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
