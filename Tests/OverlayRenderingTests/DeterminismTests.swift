import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

@Suite struct DeterminismTests {
    /// Text (two scripts, stroke, blurred shadow, rotation, fractional position), a gradient
    /// shape and a fading layer: two independent renderers produce the same bytes.
    @Test func sameInputGivesIdenticalBytes() throws {
        let style = TextStyle(font: "Noto Sans CJK SC", weight: 700, size: 40, color: .white,
                              stroke: Stroke(color: Color(red: 1, green: 0.2, blue: 0.4), width: 3),
                              shadow: Shadow(color: .black, offsetX: 4, offsetY: 4, blur: 6))
        let gradient = Fill.linearGradient(angle: 45, stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)])
        let fade = Animation(keyframes: [Keyframe(time: .zero, value: 0.2, ease: .easeInOut), Keyframe(time: seconds(2), value: 1)])
        let layers = [
            layer(.rect(ShapeStyle(fill: gradient, cornerRadius: 12)), x: 80.3, y: 60.7, width: 120, height: 80, rotation: .constant(17), opacity: fade),
            layer(.text("春季促销 Spring", style), x: 160.25, y: 150.5, rotation: .constant(-7.5)),
        ]
        let first = try render(layers, at: seconds(1, 3))
        let second = try render(layers, at: seconds(1, 3))
        #expect(first.inkCount > 3000)
        #expect(first.bytes == second.bytes)
    }
}
