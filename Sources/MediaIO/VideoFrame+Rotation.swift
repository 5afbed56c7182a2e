internal import CFFmpeg

extension VideoFrame {
    /// This frame turned clockwise by `quarterTurns` × 90°, pixel for pixel (no resampling),
    /// as the display matrix asks (`VideoStreamInfo.quarterTurns`). Turns of 0 return `self`.
    /// Formats whose chroma is subsampled unequally (4:2:2, 4:4:0) can only turn by 180°.
    public func rotated(quarterTurns: Int) throws -> VideoFrame {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        let swaps = turns % 2 == 1
        let pool = try VideoFramePool(width: swaps ? height : width, height: swaps ? width : height,
                                      pixelFormat: pixelFormat, colorSpace: colorSpace)
        return try rotated(quarterTurns: turns, into: pool)
    }

    /// As `rotated(quarterTurns:)`, into a frame from `pool` (which must have the turned size).
    public func rotated(quarterTurns: Int, into pool: VideoFramePool) throws -> VideoFrame {
        let turns = ((quarterTurns % 4) + 4) % 4
        let shift = pixelFormat.chromaShift
        let site = "(rotating a \(width)x\(height) \(pixelFormat) frame)"
        guard turns % 2 == 0 || shift.x == shift.y else {
            throw MediaError(.invalidArgument, path: site, "a \(pixelFormat) frame cannot turn by 90° without resampling its chroma; convert it to yuv420p, yuv444p or rgba first")
        }
        let (w, h) = turns % 2 == 1 ? (height, width) : (width, height)
        guard pool.width == w, pool.height == h, pool.pixelFormat == pixelFormat else {
            throw MediaError(.invalidArgument, path: site, "the pool makes \(pool.width)x\(pool.height) \(pool.pixelFormat) frames, the turned frame is \(w)x\(h) \(pixelFormat)")
        }
        let result = try pool.makeFrame(time: time)
        withExtendedLifetime(self) {
            for index in 0..<planeCount {
                rotatePlane(plane(index), into: result.plane(index), turns: turns, bytesPerPixel: bytesPerPixel(plane: index))
            }
        }
        return result
    }

    /// Bytes one pixel takes in plane `index` (packed formats: the whole pixel).
    func bytesPerPixel(plane index: Int) -> Int {
        let d = pixelFormat.descriptor.pointee
        let components = [d.comp.0, d.comp.1, d.comp.2, d.comp.3].prefix(Int(d.nb_components))
        return Int(components.filter { Int($0.plane) == index }.map(\.step).max() ?? 1)
    }
}

/// Copies `source` turned clockwise by `turns` quarter turns into `target`.
private func rotatePlane(_ source: VideoFrame.Plane, into target: VideoFrame.Plane, turns: Int, bytesPerPixel n: Int) {
    let w = source.width, h = source.height
    for y in 0..<h {
        let sourceRow = source.baseAddress + y * source.bytesPerRow
        for x in 0..<w {
            // Where source pixel (x, y) lands.
            let (tx, ty) = switch turns {
            case 1: (h - 1 - y, x)
            case 2: (w - 1 - x, h - 1 - y)
            default: (y, w - 1 - x)
            }
            (target.baseAddress + ty * target.bytesPerRow + tx * n).copyMemory(from: sourceRow + x * n, byteCount: n)
        }
    }
}
