import MediaIO
import MediaTime
import TestSupport

/// Test video whose frame n shows n in binary: a 4×3 grid of blocks, block k white when bit k
/// of n is set (frames 0…4095). Made with ffmpeg's `geq` (N is the frame number), so the
/// pattern survives lossy coding, scaling and any pixel format.
enum FrameNumberPattern {
    static let columns = 4, rows = 3

    /// The `geq` filter drawing the pattern (luma only; chroma neutral).
    static let filter = "geq=lum='if(mod(floor(N/pow(2,floor(X*\(columns)/W)+\(columns)*floor(Y*\(rows)/H))),2),235,16)':cb=128:cr=128"

    /// ffmpeg arguments for a numbered clip: size, rate, duration, extra filters and output options.
    static func arguments(size: String, rate: String, seconds: String, filters: [String] = [], output: [String]) -> [String] {
        ["-f", "lavfi", "-i", "color=c=black:s=\(size):r=\(rate):d=\(seconds),format=yuv420p,\(([filter] + filters).joined(separator: ","))"]
            + output
    }

    /// Reads the number a frame shows (any frame with a luma plane first: yuv or gray, 8-bit).
    static func number(in frame: VideoFrame) -> Int {
        frame.withPlanes { planes in
            let luma = planes[0]
            var n = 0
            for k in 0..<(columns * rows) {
                let column = k % columns, row = k / columns
                let x0 = (4 * column + 1) * luma.width / (4 * columns), x1 = (4 * column + 3) * luma.width / (4 * columns)
                let y0 = (4 * row + 1) * luma.height / (4 * rows), y1 = (4 * row + 3) * luma.height / (4 * rows)
                var sum = 0
                for y in y0..<y1 {
                    let line = (luma.baseAddress + y * luma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    for x in x0..<x1 { sum += Int(line[x]) }
                }
                if sum / ((x1 - x0) * (y1 - y0)) > 128 { n |= 1 << k }
            }
            return n
        }
    }
}

/// The presentation times of a file's video frames, from ffprobe (an independent reader),
/// counted from the video stream's first timestamp as MediaIO counts them.
func ffprobeFrameTimes(_ path: String) throws -> [MediaTime] {
    let json = try MediaFactory.ffprobe(path, ["-select_streams", "v:0", "-show_entries",
                                               "frame=best_effort_timestamp:stream=time_base,start_pts"])
    let stream = (json["streams"] as! [[String: Any]])[0]
    let timeBase = Rational(exactly: stream["time_base"] as! String)!
    let start = Rational(Int64(stream["start_pts"] as! Int)) * timeBase
    return (json["frames"] as! [[String: Any]]).map { frame in
        MediaTime(Rational(Int64(frame["best_effort_timestamp"] as! Int)) * timeBase - start)
    }
}

/// The index of the frame shown at `t`: the last whose time is ≤ t (the first before it).
func expectedFrame(at t: MediaTime, times: [MediaTime]) -> Int {
    var low = 0, high = times.count // first index with time > t
    while low < high {
        let mid = (low + high) / 2
        if times[mid] <= t { low = mid + 1 } else { high = mid }
    }
    return max(0, low - 1)
}

extension FrameNumberPattern {
    /// Paints frame `n` of the pattern into a yuv420p frame, with some texture and colour so
    /// encoders have real work (for writer tests that must not depend on the ffmpeg CLI).
    static func paint(_ n: Int, into frame: VideoFrame) {
        frame.withPlanes { planes in
            let luma = planes[0]
            for y in 0..<luma.height {
                let line = (luma.baseAddress + y * luma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<luma.width {
                    let k = (x * columns / luma.width) + columns * (y * rows / luma.height)
                    let on = (n >> k) & 1 == 1
                    line[x] = UInt8((on ? 220 : 30) + (x * 7 + y * 3 + n) % 11)
                }
            }
            for (index, plane) in planes.dropFirst().enumerated() {
                for y in 0..<plane.height {
                    let line = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<plane.width { line[x] = UInt8(112 + (x + y * (index + 1) + n) % 32) }
                }
            }
        }
    }
}
