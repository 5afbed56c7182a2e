/// `bytes` as lower-case hex digits, two a byte.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]] }
    return String(decoding: text, as: UTF8.self)
}
