import Foundation

/// Broken, hostile and odd media made at test time (with the ffmpeg CLI and plain file
/// writes), shared by the MediaIO tests (what the probe and readers say) and the command-line
/// tests (what `reel validate` and `reel render` do). Each file is made once per test process.
public enum HostileMedia {
    /// A 2 s 160x120 H.264 clip (GOP 10), its index (moov) at the end or, with `faststart`, first.
    public static func video(faststart: Bool) throws -> String {
        try MediaFactory.file(faststart ? "good-faststart.mp4" : "good.mp4",
                              ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2", "-c:v", "libx264", "-g", "10"]
                              + (faststart ? ["-movflags", "+faststart"] : []))
    }

    /// A 2 s Theora + Vorbis Ogg whose Vorbis setup header is damaged (its codebooks, with
    /// the page's checksum made right again): it probes as video with sound, its picture
    /// decodes, its sound does not ("Setup header corrupt").
    public static func damagedVorbis() throws -> String {
        let good = try MediaFactory.file("theora-vorbis.ogg", ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=2", "-f", "lavfi",
                                                               "-i", "sine=f=440:d=2", "-c:v", "libtheora", "-c:a", "libvorbis"])
        return try MediaFactory.file("damaged-vorbis-setup.ogg") { path in
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
            let setup = Array("\u{5}vorbis".utf8)
            guard let at = (0...(bytes.count - setup.count)).first(where: { Array(bytes[$0..<($0 + setup.count)]) == setup }) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            for i in (at + 12)..<(at + 40) { bytes[i] ^= 0x5A }
            // The Ogg page holding it: header of 27 bytes + segment table, then the body.
            let page = (0...at).last { Array(bytes[$0..<($0 + 4)]) == Array("OggS".utf8) }!
            let segments = Int(bytes[page + 26]), header = 27 + segments
            let body = bytes[(page + 27)..<(page + header)].reduce(0) { $0 + Int($1) }
            for i in 22..<26 { bytes[page + i] = 0 }
            let crc = oggCRC(Array(bytes[page..<(page + header + body)]))
            for i in 0..<4 { bytes[page + 22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Ogg's page checksum: CRC-32 with polynomial 0x04C11DB7, not reflected, starting at 0.
    static func oggCRC(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(0)) { crc, byte in
            var c = crc ^ (UInt32(byte) << 24)
            for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
            return c
        }
    }

    /// A file of zero bytes.
    public static func empty(_ name: String = "empty.mp4") throws -> String {
        try MediaFactory.file(name) { _ = FileManager.default.createFile(atPath: $0, contents: Data()) }
    }

    /// The first `fraction` of `video(faststart:)`.
    public static func truncated(at fraction: Double, faststart: Bool) throws -> String {
        let source = try video(faststart: faststart)
        let name = "cut-\(Int((fraction * 1000).rounded()))permille\(faststart ? "-faststart" : "").mp4"
        return try MediaFactory.file(name) { path in
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
        }
    }

    /// 20 000 seeded random bytes.
    public static func randomBytes(named name: String = "random.mp4") throws -> String {
        try MediaFactory.file(name) { path in
            var state: UInt64 = 7
            let bytes = (0..<20_000).map { _ -> UInt8 in
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: z ^ (z >> 31))
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A text file under a media name (`notes.txt`, `notes.png`).
    public static func text(named name: String) throws -> String {
        try MediaFactory.file(name) { try "Shot list:\n1. wide\n2. close\n".write(toFile: $0, atomically: true, encoding: .utf8) }
    }

    /// A PNG whose header declares `width` x `height` RGBA pixels, followed by a few rows of data.
    public static func declaredPNG(width: Int, height: Int) throws -> String {
        try MediaFactory.file("declared-\(width)x\(height).png") { path in
            let rows = [UInt8](repeating: 0, count: 10 * (1 + 4 * min(width, 4096)))
            try PNGWriter.png(width: width, height: height, bitDepth: 8, colorType: 6, zlib: PNGWriter.zlibStored(rows))
                .write(to: URL(fileURLWithPath: path))
        }
    }

    /// A decompression bomb: a valid black 1-bit PNG of `width` x `height` whose zeros compress
    /// about 1000:1 (30000 x 30000 is 113 MB of rows in a 0.7 MB file, 3.6 GB as RGBA).
    public static func pngBomb(width: Int, height: Int) throws -> String {
        try MediaFactory.file("bomb-\(width)x\(height).png") { path in
            let rowBytes = 1 + (width + 7) / 8
            try PNGWriter.png(width: width, height: height, bitDepth: 1, colorType: 0, zlib: PNGWriter.zlibZeros(count: rowBytes * height))
                .write(to: URL(fileURLWithPath: path))
        }
    }

    /// `video(faststart: false)` with its media data (mdat) overwritten by random bytes: the
    /// index is whole, so the file opens and probes, but no frame decodes.
    public static func garbledFrames() throws -> String {
        let source = try video(faststart: false)
        return try MediaFactory.file("garbled-frames.mp4") { path in
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
            guard let mdat = data.firstRange(of: Array("mdat".utf8)) else { throw CocoaError(.fileReadCorruptFile) }
            let size = Int(data[mdat.lowerBound - 4]) << 24 | Int(data[mdat.lowerBound - 3]) << 16 | Int(data[mdat.lowerBound - 2]) << 8 | Int(data[mdat.lowerBound - 1])
            var state: UInt32 = 12345
            for i in mdat.upperBound..<min(data.count, mdat.lowerBound - 4 + size) {
                state = state &* 1_103_515_245 &+ 12345
                data[i] = UInt8(truncatingIfNeeded: state >> 16)
            }
            try Data(data).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A 2 s red video of 1x1 pixel (H.264 4:4:4).
    public static func onePixel() throws -> String {
        try MediaFactory.file("one-pixel.mp4", ["-f", "lavfi", "-i", "color=c=red:size=16x16:rate=25:duration=2", "-vf", "scale=1:1",
                                                "-c:v", "libx264", "-pix_fmt", "yuv444p"])
    }

    /// VP9 + Opus in WebM, under an `.mp4` name.
    public static func webmNamedMP4() throws -> String {
        try MediaFactory.file("webm-named.mp4", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2", "-f", "lavfi", "-i", "sine=frequency=440:d=2",
                                                 "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus", "-shortest", "-f", "webm"])
    }

    /// 2 s of 440 Hz at 44.1 kHz in 5.1 (AAC), and 2 s of 880 Hz at 48 kHz mono (PCM).
    public static func surround44100() throws -> String {
        try MediaFactory.file("tone-5.1-44100.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2",
                                                     "-af", "pan=5.1|FL=c0|FR=c0|FC=c0|LFE=c0|BL=c0|BR=c0", "-c:a", "aac"])
    }

    public static func mono48000() throws -> String {
        try MediaFactory.file("tone-mono-48000.wav", ["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=2", "-ac", "1"])
    }

    /// An AVI whose video FourCC is unknown: FFmpeg sees a video stream it has no decoder for.
    public static func unknownCodec() throws -> String {
        try MediaFactory.file("unknown-codec.avi") { path in
            let source = MediaFactory.path("xvid-source.avi")
            try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "mpeg4", "-vtag", "XVID", source])
            var data = try Data(contentsOf: URL(fileURLWithPath: source))
            while let range = data.range(of: Data("XVID".utf8)) { data.replaceSubrange(range, with: Data("QQQQ".utf8)) }
            try data.write(to: URL(fileURLWithPath: path))
        }
    }
}

/// Just enough PNG writing for hostile files: chunks with CRCs, and zlib streams that are
/// either stored (any bytes) or a run of zeros in fixed-Huffman back-references.
public enum PNGWriter {
    public static func png(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, zlib: [UInt8]) -> Data {
        var header: [UInt8] = []
        header += be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
        var data: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        data += chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
        return Data(data)
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(body.count) + typed + be32(Int(crc32(typed)))
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    /// zlib with stored (uncompressed) blocks.
    public static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, bytes.count - offset)
            let last: UInt8 = offset + n == bytes.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += bytes[offset..<(offset + n)]
            offset += n
        } while offset < bytes.count
        return out + be32(Int(adler32(bytes)))
    }

    /// zlib of `count` zero bytes: one literal 0, then back-references of 258 at distance 1
    /// (13 bits each, fixed Huffman codes), then literals for the rest.
    public static func zlibZeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1) // BFINAL
        bits.write(1, count: 2) // BTYPE 01: fixed Huffman
        func code(_ value: UInt32, length: Int) { bits.write(reversing: value, count: length) }
        func literalZero() { code(0x30, length: 8) } // literals 0…143: 0x30 + value, 8 bits
        literalZero()
        var remaining = count - 1
        while remaining >= 258 {
            code(0b1100_0101, length: 8) // length code 285 (= 258): 280…287 are 0xC0 + (code − 280), 8 bits
            code(0, length: 5)           // distance code 0 (= 1)
            remaining -= 258
        }
        for _ in 0..<remaining { literalZero() }
        code(0, length: 7) // end of block (256)
        // Adler-32 of n zeros: a = 1, b = n mod 65521.
        return [0x78, 0xDA] + bits.bytes + be32(Int(UInt32(count % 65521) << 16 | 1))
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        /// Bits of `value`, least significant first (header fields, extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { put(Int((value >> i) & 1)) }
        }

        /// A Huffman code, most significant bit first.
        mutating func write(reversing value: UInt32, count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { put(Int((value >> i) & 1)) }
        }

        private mutating func put(_ bit: Int) {
            if used == 8 { bytes.append(0); used = 0 }
            bytes[bytes.count - 1] |= UInt8(bit << used)
            used += 1
        }
    }
}
