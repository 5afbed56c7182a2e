/// `count` random bytes as lowercase hex, from the system's generator: ids and tokens.
func randomHex(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in
        let byte = UInt8.random(in: 0...255, using: &generator)
        return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
    }.joined()
}
