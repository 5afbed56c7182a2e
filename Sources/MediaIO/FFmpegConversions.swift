internal import CFFmpeg
import MediaTime

extension Rational {
    /// An FFmpeg rational, or nil for 0/0, x/0 and 0/x ("unknown" in FFmpeg's conventions).
    init?(nonZero value: AVRational) {
        guard value.num != 0, value.den != 0 else { return nil }
        self.init(Int64(value.num), Int64(value.den))
    }

    var avRational: AVRational {
        precondition(numerator <= Int32.max && denominator <= Int32.max, "rational \(self) does not fit AVRational")
        return AVRational(num: Int32(numerator), den: Int32(denominator))
    }
}

extension MediaTime {
    /// `ticks` × `timeBase`, exactly.
    init(ticks: Int64, timeBase: AVRational) {
        self.init(Rational(ticks) * Rational(Int64(timeBase.num), Int64(timeBase.den)))
    }

    /// This time in ticks of `timeBase`, rounded down (the tick at or before the time).
    func ticks(timeBase: AVRational) -> Int64 {
        (value / Rational(Int64(timeBase.num), Int64(timeBase.den))).floor
    }
}

/// An FFmpeg dictionary as a Swift one.
func dictionary(_ dict: OpaquePointer?) -> [String: String] {
    var result: [String: String] = [:]
    var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
    while let next = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
        result[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
        entry = next
    }
    return result
}

/// A C string from FFmpeg's name functions, nil for a null pointer.
func name(_ cString: UnsafePointer<CChar>?) -> String? { cString.map { String(cString: $0) } }
