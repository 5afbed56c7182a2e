/// A look at one instant, ready to change pixels.
public protocol PictureLook {
    /// How far from a pixel the look reads, in luma pixels (0: each pixel on its own).
    var reach: Int { get }
    /// Writes the look of the source into the target. Only `region` has to come out as in the
    /// whole picture, and it does when the source is right `reach` pixels around it.
    func apply(_ pixels: LookPixels, within region: PictureRegion)
}

/// The picture a look reads and the one it writes, of the same kind and size; the caller owns
/// both.
public enum LookPixels {
    /// Limited-range Y′CbCr 4:2:0: planes Y, Cb, Cr; chroma is ⌈width/2⌉ × ⌈height/2⌉.
    case yuv420(source: [Plane], target: [Plane], width: Int, height: Int)
    /// Premultiplied R′G′B′A, 4 bytes a pixel.
    case rgba(source: Plane, target: Plane, width: Int, height: Int)

    /// A plane's first sample and the bytes from one row to the next.
    public typealias Plane = (base: UnsafeMutablePointer<UInt8>, stride: Int)
}
