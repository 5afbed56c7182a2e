import MediaTime

/// A look applied to a layer's picture before it is placed and composited: a clip's own
/// filters, then its track's, in list order. Numbers are ramps in timeline time like a
/// layer's transform; instructions hold them sliced to their own range.
public enum LayerFilter: Hashable, Sendable, Codable {
    /// A Gaussian blur; `radius` is its standard deviation in output pixels (as CSS `blur()`).
    case blur(radius: Animation)
    case color(ColorAdjustment)
    /// A 3D LUT from a `.cube` file (absolute path), mixed with the picture by `intensity` (0…1).
    case lut(file: String, intensity: Animation)
    case chromaKey(ChromaKey)

    public func sliced(to range: TimeRange) -> LayerFilter {
        switch self {
        case .blur(let radius): .blur(radius: radius.sliced(to: range))
        case .color(let c):
            .color(ColorAdjustment(brightness: c.brightness.sliced(to: range), contrast: c.contrast.sliced(to: range),
                                   saturation: c.saturation.sliced(to: range), temperature: c.temperature.sliced(to: range)))
        case .lut(let file, let intensity): .lut(file: file, intensity: intensity.sliced(to: range))
        case .chromaKey(let k):
            .chromaKey(ChromaKey(color: k.color, similarity: k.similarity.sliced(to: range), softness: k.softness.sliced(to: range),
                                 spill: k.spill.sliced(to: range)))
        }
    }

    /// The project format's name of the filter.
    public var typeName: String {
        switch self {
        case .blur: "blur"
        case .color: "color"
        case .lut: "lut"
        case .chromaKey: "chroma_key"
        }
    }

    /// Whether the filter makes the picture partly transparent (so it takes the general path).
    public var makesAlpha: Bool {
        if case .chromaKey = self { return true }
        return false
    }
}

/// `{ type: color }`: in this order, the white balance moved to `temperature`, then contrast
/// about mid grey, brightness and saturation.
public struct ColorAdjustment: Hashable, Sendable, Codable {
    /// Added to luma, as a fraction of the luma range (−1…1; 0 leaves it).
    public var brightness: Animation
    /// Luma's distance from mid grey is multiplied by it (1 leaves it).
    public var contrast: Animation
    /// Chroma is multiplied by it (0 is grey, 1 leaves it).
    public var saturation: Animation
    /// Kelvin: the picture is tinted towards the colour of light at this temperature
    /// relative to 6500 K (below: warmer, orange; above: cooler, blue; 6500 leaves it).
    public var temperature: Animation

    public init(brightness: Animation, contrast: Animation, saturation: Animation, temperature: Animation) {
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.temperature = temperature
    }
}

/// `{ type: chroma_key }`: pixels near `color` become transparent.
public struct ChromaKey: Hashable, Sendable, Codable {
    public var color: Color
    /// Chroma distance from the key colour, as a fraction of the largest possible (0…1), under
    /// which a pixel is fully transparent.
    public var similarity: Animation
    /// The width, in the same unit, of the ramp from transparent to opaque beyond `similarity`.
    public var softness: Animation
    /// How much of the key colour's hue is taken out of what stays (0…1).
    public var spill: Animation

    public init(color: Color, similarity: Animation, softness: Animation, spill: Animation) {
        self.color = color
        self.similarity = similarity
        self.softness = softness
        self.spill = spill
    }
}

extension CompositionGraph {
    /// The `.cube` files the layers' LUT filters read, each once, in the order first met.
    public var lutFiles: [String] {
        var seen = Set<String>(), result: [String] = []
        for instruction in videoComposition.instructions {
            for layer in instruction.layers {
                for case .lut(let file, _) in layer.filters where seen.insert(file).inserted { result.append(file) }
            }
        }
        return result
    }
}
