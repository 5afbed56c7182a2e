/// A GIF's one palette for all its frames, in integer maths (the same bytes on every machine):
/// the colours of every frame are counted first (`GIFColorCount`, the first pass), then cut
/// into 255 boxes by median cut; entry 255 stays transparent, which FFmpeg's GIF encoder uses
/// for the pixels a frame leaves as the one before had them. Frames are then mapped to it
/// with an 8×8 ordered (Bayer) dither (`GIFPalette.indices`).
struct GIFPalette: Equatable {
    /// 256 entries, 0xAARRGGBB; unused ones are opaque black, the last is transparent.
    let colors: [UInt32]
    /// How many entries the median cut made (the first ones).
    let count: Int

    static let transparentIndex = 255

    /// The palette of the colours counted: each box's mean colour, the box with the most
    /// pixels times its longest side (in 5-bit levels) cut first, at the median of its pixels
    /// along that side.
    init(_ counted: GIFColorCount) {
        var cells = counted.cells()
        var boxes = cells.isEmpty ? [] : [Box(range: 0..<cells.count, cells: cells)]
        while boxes.count < Self.transparentIndex {
            guard let (i, axis) = Self.boxToCut(boxes, cells) else { break }
            let box = boxes[i]
            cells[box.range].sort { ($0.level(axis), $0.bin) < ($1.level(axis), $1.bin) }
            var below = 0, cut = box.range.lowerBound + 1
            for j in box.range.dropLast() {
                below += cells[j].count
                cut = j + 1
                if 2 * below >= box.count { break }
            }
            boxes[i] = Box(range: box.range.lowerBound..<cut, cells: cells)
            boxes.insert(Box(range: cut..<box.range.upperBound, cells: cells), at: i + 1)
        }
        var colors = boxes.map { box -> UInt32 in
            var sums = (r: 0, g: 0, b: 0)
            for cell in cells[box.range] {
                sums.r += cell.sumR
                sums.g += cell.sumG
                sums.b += cell.sumB
            }
            let mean = { (sum: Int) in UInt32((sum + box.count / 2) / box.count) }
            return 0xFF00_0000 | mean(sums.r) << 16 | mean(sums.g) << 8 | mean(sums.b)
        }
        count = colors.count
        colors += Array(repeating: 0xFF00_0000, count: Self.transparentIndex - colors.count)
        colors.append(0x0000_0000)
        self.colors = colors
    }

    /// The box to cut next and along which axis (0 red, 1 green, 2 blue); nil when every box
    /// holds one cell.
    private static func boxToCut(_ boxes: [Box], _ cells: [GIFColorCount.Cell]) -> (Int, Int)? {
        var best: (index: Int, axis: Int, score: Int)?
        for (i, box) in boxes.enumerated() where box.range.count > 1 {
            let extents = (0..<3).map { axis in
                let levels = cells[box.range].map { $0.level(axis) }
                return levels.max()! - levels.min()!
            }
            let axis = extents.firstIndex(of: extents.max()!)!
            let score = box.count * (extents[axis] + 1)
            if best == nil || score > best!.score { best = (i, axis, score) }
        }
        return best.map { ($0.index, $0.axis) }
    }

    private struct Box {
        let range: Range<Int>
        /// Pixels in the box.
        let count: Int

        init(range: Range<Int>, cells: [GIFColorCount.Cell]) {
            self.range = range
            count = cells[range].reduce(0) { $0 + $1.count }
        }
    }

    /// The 8×8 Bayer matrix (0…63).
    private static let bayer: [Int] = {
        var m = [0]
        var size = 1
        while size < 8 {
            var next = [Int](repeating: 0, count: 4 * size * size)
            for y in 0..<size {
                for x in 0..<size {
                    let v = 4 * m[y * size + x]
                    next[y * 2 * size + x] = v
                    next[y * 2 * size + x + size] = v + 2
                    next[(y + size) * 2 * size + x] = v + 3
                    next[(y + size) * 2 * size + x + size] = v + 1
                }
            }
            m = next
            size *= 2
        }
        return m
    }()

    /// Palette indices of a packed RGB24 picture (`width` pixels a row, `stride` bytes apart),
    /// dithered: each pixel's channels move by (Bayer − 32) / 4, −8…+7 levels, before the
    /// nearest entry is looked up (squared RGB distance, the lowest index on a tie; cached per
    /// 6-bit-a-channel cell in `lookup`).
    func indices(rgb: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, lookup: inout GIFColorLookup) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = y * stride
            for x in 0..<width {
                let offset = (Self.bayer[(y & 7) * 8 + (x & 7)] - 32) >> 2
                let p = row + 3 * x
                let r = min(max(Int(rgb[p]) + offset, 0), 255)
                let g = min(max(Int(rgb[p + 1]) + offset, 0), 255)
                let b = min(max(Int(rgb[p + 2]) + offset, 0), 255)
                out[y * width + x] = lookup.nearest(r >> 2, g >> 2, b >> 2, in: self)
            }
        }
        return out
    }
}

/// The nearest palette entry of each 6-bit-a-channel colour cell, found when first asked.
struct GIFColorLookup {
    private var table = [Int16](repeating: -1, count: 1 << 18)

    mutating func nearest(_ r: Int, _ g: Int, _ b: Int, in palette: GIFPalette) -> UInt8 {
        let cell = r << 12 | g << 6 | b
        if table[cell] >= 0 { return UInt8(table[cell]) }
        let (cr, cg, cb) = (r << 2 + 2, g << 2 + 2, b << 2 + 2)
        var best = 0, bestDistance = Int.max
        for i in 0..<palette.count {
            let c = Int(palette.colors[i])
            let dr = (c >> 16 & 0xFF) - cr, dg = (c >> 8 & 0xFF) - cg, db = (c & 0xFF) - cb
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { (best, bestDistance) = (i, distance) }
        }
        table[cell] = Int16(best)
        return UInt8(best)
    }
}

/// The colours of all a GIF's frames, counted in cells of 5 bits a channel with their exact
/// sums (the first of the two passes).
struct GIFColorCount {
    struct Cell {
        /// r << 10 | g << 5 | b, 5 bits each.
        let bin: Int
        let count, sumR, sumG, sumB: Int

        func level(_ axis: Int) -> Int { bin >> (10 - 5 * axis) & 31 }
    }

    private var counts = [Int](repeating: 0, count: 1 << 15)
    private var sums = [Int](repeating: 0, count: 3 << 15)

    /// Counts a packed RGB24 picture.
    mutating func add(rgb: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) {
        for y in 0..<height {
            var p = y * stride
            for _ in 0..<width {
                let r = Int(rgb[p]), g = Int(rgb[p + 1]), b = Int(rgb[p + 2])
                let bin = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
                counts[bin] += 1
                sums[3 * bin] += r
                sums[3 * bin + 1] += g
                sums[3 * bin + 2] += b
                p += 3
            }
        }
    }

    /// The cells that hold any pixel, in bin order.
    func cells() -> [Cell] {
        counts.indices.filter { counts[$0] > 0 }.map {
            Cell(bin: $0, count: counts[$0], sumR: sums[3 * $0], sumG: sums[3 * $0 + 1], sumB: sums[3 * $0 + 2])
        }
    }
}
