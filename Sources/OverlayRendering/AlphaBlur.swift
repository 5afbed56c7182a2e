/// A Gaussian blur of an 8-bit alpha plane, approximated by three box blurs per direction
/// (within a few percent of the true Gaussian), in integer arithmetic: identical everywhere.
struct AlphaBlur {
    /// Radii of the three box passes.
    let radii: [Int]

    /// A blur with standard deviation `sigma` pixels (at most 4096: wider than any frame).
    init(sigma: Double) {
        guard sigma > 0 else { radii = []; return }
        let sigma = min(sigma, 4096)
        // Box widths whose three-fold convolution has variance sigma² (W. Jarosz / I. Kutskir).
        let passes = 3.0
        var lower = Int((12 * sigma * sigma / passes + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        let l = Double(lower)
        let lowerCount = Int(((12 * sigma * sigma - passes * l * l - 4 * passes * l - 3 * passes) / (-4 * l - 4)).rounded())
        radii = (0..<3).map { (($0 < lowerCount ? lower : lower + 2) - 1) / 2 }
    }

    /// How far the blur spreads ink, in pixels.
    var extent: Int { radii.reduce(0, +) }

    /// Blurs `height` rows of `width` bytes, `stride` apart, in place; outside is transparent.
    func apply(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        guard !radii.isEmpty else { return }
        var line = [UInt8](repeating: 0, count: max(width, height))
        for radius in radii {
            for y in 0..<height { blurLine(plane + y * stride, count: width, step: 1, radius: radius, scratch: &line) }
            for x in 0..<width { blurLine(plane + x, count: height, step: stride, radius: radius, scratch: &line) }
        }
    }

    /// One box pass along a row or column: each value becomes the rounded mean of the
    /// 2r+1 values around it (a running sum, so the cost does not depend on r).
    private func blurLine(_ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, scratch: inout [UInt8]) {
        guard radius > 0 else { return }
        for i in 0..<count { scratch[i] = start[i * step] }
        let window = 2 * radius + 1
        var sum = 0
        for i in 0...min(radius, count - 1) { sum += Int(scratch[i]) }
        for i in 0..<count {
            start[i * step] = UInt8((sum + window / 2) / window)
            let entering = i + radius + 1, leaving = i - radius
            if entering < count { sum += Int(scratch[entering]) }
            if leaving >= 0 { sum -= Int(scratch[leaving]) }
        }
    }
}
