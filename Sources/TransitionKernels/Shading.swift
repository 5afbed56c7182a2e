import PortableMath

// GLSL's built-in functions as the kernels use them, on Float and SIMD vectors, with the
// GLSL specification's formulas (smoothstep with its edges either way round, mod with
// floor): the kernels read as the gl-transitions they reproduce. Transcendental functions go
// through PortableMath's FloatMath (a shader's precision), so they round the same on
// every CPU; the pseudo-random hashes, which magnify the sine's last bits, take its Double ones.

@inline(__always) func mix<V: SIMD>(_ a: V, _ b: V, _ t: V.Scalar) -> V where V.Scalar == Float { a + (b - a) * t }
@inline(__always) func mix(_ a: Float, _ b: Float, _ t: Float) -> Float { a + (b - a) * t }
@inline(__always) func clamp(_ x: Float, _ low: Float, _ high: Float) -> Float { min(max(x, low), high) }
@inline(__always) func step(_ edge: Float, _ x: Float) -> Float { x < edge ? 0 : 1 }
@inline(__always) func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
    let t = clamp((x - edge0) / (edge1 - edge0), 0, 1)
    return t * t * (3 - 2 * t)
}
/// x rounded down, exactly as `x.rounded(.down)` (−0 stays −0), without the call to libm's floorf
/// that baseline x86-64 (no SSE4.1 `roundss`) makes of it: through a 32-bit integer when x may
/// have a fraction (|x| < 2²³), else x itself (whole, infinite or NaN).
@inline(__always) func floor(_ x: Float) -> Float {
    guard abs(x) < 0x1p23, x != 0 else { return x }
    let t = Float(Int32(x))
    return t > x ? t - 1 : t
}
/// The same for a Double, through a 64-bit integer when |x| < 2⁵².
@inline(__always) func floor(_ x: Double) -> Double {
    guard abs(x) < 0x1p52, x != 0 else { return x }
    let t = Double(Int64(x))
    return t > x ? t - 1 : t
}
@inline(__always) func floor(_ v: SIMD2<Float>) -> SIMD2<Float> { SIMD2(floor(v.x), floor(v.y)) }
@inline(__always) func floor(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(floor(v.x), floor(v.y), floor(v.z)) }
@inline(__always) func fract(_ x: Float) -> Float { x - floor(x) }
@inline(__always) func fract(_ v: SIMD2<Float>) -> SIMD2<Float> { v - floor(v) }
@inline(__always) func mod(_ x: Float, _ y: Float) -> Float { x - y * floor(x / y) }
@inline(__always) func sign(_ x: Float) -> Float { x > 0 ? 1 : x < 0 ? -1 : 0 }
@inline(__always) func length(_ v: SIMD2<Float>) -> Float { (v * v).sum().squareRoot() }
@inline(__always) func distance(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float { length(a - b) }
@inline(__always) func dot(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float { (a * b).sum() }
@inline(__always) func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
@inline(__always) func normalize(_ v: SIMD2<Float>) -> SIMD2<Float> { v / length(v) }

@inline(__always) func sin(_ x: Float) -> Float { FloatMath.sin(x) }
@inline(__always) func cos(_ x: Float) -> Float { FloatMath.cos(x) }
@inline(__always) func tan(_ x: Float) -> Float { FloatMath.tan(x) }
@inline(__always) func atan(_ y: Float, _ x: Float) -> Float { FloatMath.atan2(y, x) }
@inline(__always) func exp(_ x: Float) -> Float { FloatMath.exp(x) }
@inline(__always) func log(_ x: Float) -> Float { FloatMath.log(x) }
@inline(__always) func pow(_ x: Float, _ y: Float) -> Float { FloatMath.pow(x, y) }

/// The colour's R′G′B′ (premultiplied, as the pictures are).
@inline(__always) func rgb(_ c: SIMD4<Float>) -> SIMD3<Float> { SIMD3(c.x, c.y, c.z) }
/// An opaque colour.
@inline(__always) func opaque(_ c: SIMD3<Float>) -> SIMD4<Float> { SIMD4(c, 1) }
/// BT.709 luma of R′G′B′ (what gl-transitions' greyscale and luminance kernels weigh with).
@inline(__always) func luma(_ c: SIMD4<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

/// gl-transitions' usual pseudo-random number of a point, fract(sin(dot(co, (12.9898, 78.233))) × 43758.5453),
/// in Double and PortableMath: the same on every CPU (the GLSL original differs between GPUs).
@inline(__always) func random(_ co: SIMD2<Float>) -> Float {
    let s = PortableMath.sin(Double(co.x) * 12.9898 + Double(co.y) * 78.233) * 43758.5453
    return Float(s - floor(s))
}

/// GLSL's acos, for −1 ≤ x ≤ 1: the angle whose cosine is x, as atan2(√(1 − x²), x) so it goes
/// through PortableMath (the square root is exactly rounded everywhere).
@inline(__always) func acos(_ x: Float) -> Float { FloatMath.atan2(((1 - x) * (1 + x)).squareRoot(), x) }
/// A whole-number grid size from a vector parameter (gl-transitions' `ivec2` uniforms): each
/// component without its fraction.
@inline(__always) func gridSize(_ v: SIMD2<Float>) -> SIMD2<Float> { v.rounded(.towardZero) }
/// A premultiplied colour brought into range: alpha to 0…1, each colour channel to 0…alpha
/// (for kernels whose mixes overshoot by design, as GL's framebuffer clamps them).
@inline(__always) func saturate(_ c: SIMD4<Float>) -> SIMD4<Float> {
    let a = min(max(c.w, 0), 1)
    return SIMD4(min(max(c.x, 0), a), min(max(c.y, 0), a), min(max(c.z, 0), a), a)
}

// Further GLSL built-ins some kernels need.

@inline(__always) func ceil(_ x: Float) -> Float { x.rounded(.up) }
@inline(__always) func abs(_ v: SIMD2<Float>) -> SIMD2<Float> { SIMD2(abs(v.x), abs(v.y)) }
@inline(__always) func mod(_ v: SIMD2<Float>, _ y: Float) -> SIMD2<Float> { SIMD2(mod(v.x, y), mod(v.y, y)) }
/// GLSL's `mix(a, b, t)` with one weight per channel.
@inline(__always) func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: SIMD4<Float>) -> SIMD4<Float> { a + (b - a) * t }

/// The variant of `random` that byteblacksmith's "improved" one-liner uses (gl-transitions'
/// perlin; GlitchDisplace's, whose result it never uses): the dot product (with `a` for the x weight, 12.9898 unless
/// seeded otherwise) is reduced modulo 3.14 before the sine, fract(sin(mod(dot, 3.14)) ×
/// 43758.5453); in Double through PortableMath, the same on every CPU.
@inline(__always) func reducedRandom(_ co: SIMD2<Float>, a: Float = 12.9898) -> Float {
    let dot = Double(co.x) * Double(a) + Double(co.y) * 78.233
    let s = PortableMath.sin(dot - 3.14 * floor(dot / 3.14)) * 43758.5453
    return Float(s - floor(s))
}

/// sin and cos of x at once: the same bits as `sin(x)` and `cos(x)`, one argument reduction.
@inline(__always) func sinCos(_ x: Float) -> (sin: Float, cos: Float) { FloatMath.sinAndCos(x) }
