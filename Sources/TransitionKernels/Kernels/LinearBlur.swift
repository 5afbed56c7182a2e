/// gl-transitions' `LinearBlur`: a cross-fade through a box blur: each picture is the mean of
/// 6×6 samples on a grid from −½·d to +⅓·d around the point (d = `intensity`·(½ − |p − ½|), so
/// the blur is widest in the middle and the grid is not centred, as in the original).
///
/// Rendered, in two passes over the cross-fade (the reads are bilinear and the fade linear, so
/// the mean of the mix is the mix of the means), the bilinear reads split by axis (the grid's
/// columns are the same for each row of it, and the reads are clamped axis by axis): first each
/// row of the mix summed at the grid's 6 offsets across, then those sums at its 6 offsets down:
/// 12 linear reads a pixel instead of 72 bilinear ones. The positions are the original's to the
/// bit; only the order of the sums differs.
struct LinearBlur: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "linear-blur", glName: "LinearBlur",
        summary: "A cross-fade that blurs both clips, most in the middle.",
        parameters: [TransitionParameter("intensity", .number(0.1), range: 0...1, "the blur's width at the middle, in fractions of the frame, times 2")])

    let intensity: Float

    init(_ values: TransitionValues) { intensity = values.number("intensity") }

    @inline(__always) func spread(_ progress: Float) -> Float { intensity * (0.5 - abs(0.5 - progress)) }

    /// The grid's offsets, (i/6 − ½)·spread for i = 0…5.
    @inline(__always) static func offsets(_ spread: Float) -> SIMD8<Float> {
        var offsets = SIMD8<Float>()
        for i in 0..<6 { offsets[i] = (Float(i) / 6 - 0.5) * spread }
        return offsets
    }

    /// One pixel as the original computes it, 36 bilinear reads of each picture (the reference
    /// `render` is tested against).
    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let offsets = Self.offsets(spread(progress))
        var a = SIMD4<Float>(), b = SIMD4<Float>()
        for i in 0..<6 {
            for j in 0..<6 {
                let point = uv + SIMD2(offsets[i], offsets[j])
                a += from.color(point)
                b += to.color(point)
            }
        }
        return mix(a, b, progress) / 36
    }

    func render(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture,
                workspace: TransitionWorkspace, bands: TransitionBands) {
        let offsets = Self.offsets(spread(progress))
        guard offsets[0].isFinite else {
            bands { rows in renderRows(progress: progress, from: from, to: to, into: output, rows: rows) }
            return
        }
        let width = output.width, height = output.height
        let du = 1 / Float(width), dv = 1 / Float(height)
        let columns = from.columns, lastColumn = from.lastColumn, rowsF = from.rows, lastRow = from.lastRow
        let across = workspace.picture(0, width: width, height: height)
        // Across: each row of the mix at the 6 offsets of u (as `color` clamps and splits them).
        bands { rows in
            let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer { line.deallocate() }
            for y in rows {
                let f = from.pixels + y &* width, t = to.pixels + y &* width
                for x in 0..<width { line[x] = mix(f[x], t[x], progress) }
                let out = across.pixels + y &* width
                for x in 0..<width {
                    let u = (Float(x) + 0.5) * du
                    var sum = SIMD4<Float>.zero
                    for i in 0..<6 {
                        let position = min(max((u + offsets[i]) * columns - 0.5, 0), lastColumn)
                        let x0 = Int(position), fx = position - Float(x0)
                        let x1 = x0 < width &- 1 ? x0 &+ 1 : x0
                        sum += line[x0] * (1 - fx) + line[x1] * fx
                    }
                    out[x] = sum
                }
            }
        }
        // Down: those sums at the 6 offsets of v, the mean of the 36.
        bands { rows in
            for y in rows {
                let v = 1 - (Float(y) + 0.5) * dv
                var upper = [UnsafeMutablePointer<SIMD4<Float>>](repeating: across.pixels, count: 6)
                var lower = upper
                var weights = SIMD8<Float>()
                for j in 0..<6 {
                    let position = min(max((1 - (v + offsets[j])) * rowsF - 0.5, 0), lastRow)
                    let y0 = Int(position)
                    weights[j] = position - Float(y0)
                    upper[j] = across.pixels + y0 &* width
                    lower[j] = across.pixels + (y0 < height &- 1 ? y0 &+ 1 : y0) &* width
                }
                let out = output.pixels + y &* width
                upper.withUnsafeBufferPointer { upper in
                    lower.withUnsafeBufferPointer { lower in
                        for x in 0..<width {
                            var sum = SIMD4<Float>.zero
                            for j in 0..<6 { sum += upper[j][x] * (1 - weights[j]) + lower[j][x] * weights[j] }
                            out[x] = TransitionRenderer.stored(sum / 36)
                        }
                    }
                }
            }
        }
    }
}
