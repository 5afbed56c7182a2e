import CompositionGraph
import MediaTime
import TestSupport

/// The overlays of Examples/promo as the compiler makes them, at 1920×1080.
enum PromoOverlays {
    static let renderSize = PixelSize(width: 1920, height: 1080)

    /// "Spring Sale", DejaVu Sans bold 96 px, white, anchor at (50 %, 80 %), shown 1 s–5 s with
    /// 0.5 s fades.
    static var title: OverlayLayer {
        let opacity = Animation(keyframes: [
            Keyframe(time: seconds(1), value: 0), Keyframe(time: seconds(3, 2), value: 1),
            Keyframe(time: seconds(9, 2), value: 1), Keyframe(time: seconds(5), value: 0),
        ])
        return OverlayLayer(content: .text("Spring Sale", TextStyle(font: "DejaVu Sans", weight: 700, size: 96, color: .white)),
                            timeRange: TimeRange(start: seconds(1), end: seconds(5)),
                            positionX: .constant(960), positionY: .constant(864), opacity: opacity)
    }

    /// The logo at the bottom-right corner with a 32 px margin, at 70 % for the whole 20 s.
    static func watermark(_ path: String) -> OverlayLayer {
        OverlayLayer(content: .image(MediaReference.fake("logo", path: path, kind: .image)),
                     timeRange: TimeRange(start: .zero, end: seconds(20)),
                     positionX: .constant(1920 - 32), positionY: .constant(1080 - 32),
                     anchorX: .constant(1), anchorY: .constant(1), opacity: .constant(0.7))
    }

    /// logo.png as the media script makes it: 480×160 RGBA, opaque test pattern in a
    /// rounded band, transparent around it.
    static func makeLogo(in directory: TemporaryDirectory) throws -> String {
        try directory.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=480x160",
                              "-vf", "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(hypot(max(abs(X-240)-160,0),max(abs(Y-80)-40,0)),40),255,0)'",
                              "-frames:v", "1"], output: "logo.png")
    }
}
