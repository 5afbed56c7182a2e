@testable import TransitionKernels

/// Pictures and sample points for the kernels' tests: small frames (64x36, a 16:9 frame) whose
/// pixels the tests compute from each kernel's maths.
enum KernelFixture {
    static let width = 64, height = 36

    /// A picture of one colour.
    static func solid(_ color: SIMD4<Float>, width: Int = width, height: Int = height) -> TransitionPicture {
        let picture = TransitionPicture(width: width, height: height)
        for i in 0..<(width * height) { picture.pixels[i] = color }
        return picture
    }

    /// A picture whose pixel (x, y) is (x / (w − 1), y / (h − 1), 0.5, 1): where a kernel reads
    /// shows in its output.
    static func ramp(width: Int = width, height: Int = height) -> TransitionPicture {
        let picture = TransitionPicture(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { picture[x, y] = SIMD4(Float(x) / Float(width - 1), Float(y) / Float(height - 1), 0.5, 1) }
        }
        return picture
    }

    /// `kind` at its defaults, a picture parameter (luma's, displacement's, which have none) given `map`.
    static func atDefaults(_ kind: any TransitionKernel.Type, map: TransitionPicture = ramp()) -> any TransitionKernel {
        let pictures = kind.declaration.parameters.filter(\.defaultValue.isPicture).map { ($0.name, TransitionValue.picture(map)) }
        return kind.init(TransitionValues(Dictionary(uniqueKeysWithValues: pictures), filling: kind.declaration))
    }

    static func render(_ kernel: any TransitionKernel, _ progress: Double, _ from: TransitionPicture, _ to: TransitionPicture) -> TransitionPicture {
        let out = TransitionPicture(width: from.width, height: from.height)
        TransitionRenderer.render(kernel, progress: progress, from: from, to: to, into: out)
        return out
    }

    /// The uv of pixel (x, y)'s centre.
    static func uv(_ x: Int, _ y: Int, _ picture: TransitionPicture) -> SIMD2<Float> {
        SIMD2((Float(x) + 0.5) / Float(picture.width), 1 - (Float(y) + 0.5) / Float(picture.height))
    }

    /// Every pixel of the picture, row by row.
    static func samplePoints(_ picture: TransitionPicture) -> [(Int, Int)] {
        (0..<picture.height).flatMap { y in (0..<picture.width).map { x in (x, y) } }
    }
}
