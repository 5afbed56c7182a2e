import Testing
@testable import TransitionKernels

@Suite struct CircleTests {
    @Test func theCircleClosesOnTheOutgoingPictureAndOpensOnTheIncomingOne() throws {
        let kernel = try #require(TransitionCatalogue.kernel("circle", [:]))
        let from = KernelFixture.solid(SIMD4(1, 0, 0, 1)), to = KernelFixture.solid(SIMD4(0, 0, 1, 1))
        let back = SIMD4<Float>(0.1, 0.1, 0.1, 1)
        for progress in [0.25, 0.5, 0.75] {
            let out = KernelFixture.render(kernel, progress, from, to)
            let radius = Float(8).squareRoot() * abs(Float(progress) - 0.5)
            for (x, y) in KernelFixture.samplePoints(out) {
                let uv = KernelFixture.uv(x, y, out)
                let inside = distance(uv, SIMD2(0.5, 0.5)) <= radius
                let expected = inside ? (progress < 0.5 ? from[0, 0] : to[0, 0]) : back
                #expect(out[x, y] == expected, "at \(progress), pixel (\(x), \(y))")
            }
        }
    }
}
