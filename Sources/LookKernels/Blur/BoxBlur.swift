/// A Gaussian blur approximated by three box blurs along each axis, in integers: running sums
/// (edges extended), so the cost per pixel does not depend on the radius.
enum BoxBlur {
    /// The radii of the three boxes whose succession best matches a Gaussian of standard
    /// deviation `sigma` (the widths are the odd sizes around √(12σ²/3 + 1): W. Jarosz, "Fast
    /// image convolutions", 2001; P. Kovesi's split between the two nearest odd sizes).
    static func radii(sigma: Double) -> [Int] {
        guard sigma > 0 else { return [] }
        let passes = 3.0
        var lower = Int((12 * sigma * sigma / passes + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        let w = Double(lower)
        let boxesOfLowerWidth = Int(((12 * sigma * sigma - passes * w * w - 4 * passes * w - 3 * passes) / (-4 * w - 4)).rounded())
        let sizes = (0..<3).map { $0 < boxesOfLowerWidth ? lower : lower + 2 }
        return sizes.map { ($0 - 1) / 2 }.filter { $0 > 0 }
    }

    /// Blurs a picture of `channels` interleaved 8-bit channels a pixel (1 for a plane, 4 for
    /// R′G′B′A) from `source` into `target` (same size, may not overlap), box by box.
    static func blur(_ source: UnsafePointer<UInt8>, sourceStride: Int, into target: UnsafeMutablePointer<UInt8>, targetStride: Int,
                     width: Int, height: Int, channels: Int, radii: [Int]) {
        let rowBytes = width * channels
        guard !radii.isEmpty else {
            for y in 0..<height { (target + y * targetStride).update(from: source + y * sourceStride, count: rowBytes) }
            return
        }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * height)
        defer { scratch.deallocate() }
        // Boxes ping-pong between scratch and target, never in place: the horizontal ones
        // start in scratch, the vertical ones end in target.
        var input = UnsafePointer(source), inputStride = sourceStride
        for (i, r) in radii.enumerated() {
            let toScratch = i % 2 == 0
            let output = toScratch ? scratch : target, outputStride = toScratch ? rowBytes : targetStride
            for y in 0..<height {
                horizontalBox(input + y * inputStride, into: output + y * outputStride, width: width, channels: channels, radius: r)
            }
            (input, inputStride) = (UnsafePointer(output), outputStride)
        }
        for (i, r) in radii.enumerated() {
            let toTarget = (radii.count - i) % 2 == 1
            let output = toTarget ? target : scratch, outputStride = toTarget ? targetStride : rowBytes
            verticalBox(input, stride: inputStride, into: output, outputStride: outputStride, rowBytes: rowBytes, height: height, radius: r)
            (input, inputStride) = (UnsafePointer(output), outputStride)
        }
    }

    /// 2³² / (2r + 1), rounded: dividing a box's sum by its width is a multiply and a shift.
    @inline(__always) private static func reciprocal(_ radius: Int) -> UInt64 {
        let width = UInt64(2 * radius + 1)
        return ((1 << 32) + width / 2) / width
    }

    private static func horizontalBox(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int, channels: Int, radius r: Int) {
        let inverse = reciprocal(r), last = width - 1
        for c in 0..<channels {
            @inline(__always) func at(_ x: Int) -> UInt64 { UInt64(row[x * channels + c]) }
            let inside = min(r, last)
            var sum = UInt64(r + 1) * at(0) + UInt64(r - inside) * at(last)
            for k in stride(from: 1, through: inside, by: 1) { sum += at(k) }
            for x in 0..<width {
                out[x * channels + c] = UInt8(truncatingIfNeeded: (sum &* inverse &+ (1 << 31)) >> 32)
                sum = sum &+ at(min(x + r + 1, last)) &- at(max(x - r, 0))
            }
        }
    }

    private static func verticalBox(_ input: UnsafePointer<UInt8>, stride: Int, into out: UnsafeMutablePointer<UInt8>, outputStride: Int,
                                    rowBytes: Int, height: Int, radius r: Int) {
        let inverse = reciprocal(r), last = height - 1, inside = min(r, last)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        let first = input, bottom = input + last * stride
        for i in 0..<rowBytes { sums[i] = UInt32(r + 1) * UInt32(first[i]) + UInt32(r - inside) * UInt32(bottom[i]) }
        for k in Swift.stride(from: 1, through: inside, by: 1) {
            let row = input + k * stride
            for i in 0..<rowBytes { sums[i] &+= UInt32(row[i]) }
        }
        for y in 0..<height {
            let o = out + y * outputStride
            for i in 0..<rowBytes { o[i] = UInt8(truncatingIfNeeded: (UInt64(sums[i]) &* inverse &+ (1 << 31)) >> 32) }
            let add = input + min(y + r + 1, last) * stride, remove = input + max(y - r, 0) * stride
            for i in 0..<rowBytes { sums[i] = sums[i] &+ UInt32(add[i]) &- UInt32(remove[i]) }
        }
    }
}
