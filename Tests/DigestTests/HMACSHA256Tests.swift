import Digest
import Testing

struct HMACSHA256Tests {
    func code(key: [UInt8], _ data: [UInt8]) -> String {
        var hmac = HMACSHA256(key: key)
        hmac.update(data)
        return hmac.hexCode()
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// RFC 4231, section 4: test cases 1–7 (HMAC-SHA-256).
    @Test func rfc4231() {
        #expect(code(key: [UInt8](repeating: 0x0b, count: 20), bytes("Hi There"))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // A key shorter than the code.
        #expect(code(key: bytes("Jefe"), bytes("what do ya want for nothing?"))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Key and data of bytes that are not text.
        #expect(code(key: [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50))
            == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
        #expect(code(key: Array(1...25), [UInt8](repeating: 0xcd, count: 50))
            == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        // Truncated to 128 bits.
        #expect(code(key: [UInt8](repeating: 0x0c, count: 20), bytes("Test With Truncation")).prefix(32)
            == "a3b6167473100ee06e0c796c2955552b")
        // A 131-byte key, longer than the block, is hashed first.
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        #expect(code(key: longKey, bytes("Test Using Larger Than Block-Size Key - Hash Key First"))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(code(key: longKey, bytes("This is a test using a larger than block-size key and a larger than block-size data. "
                                         + "The key needs to be hashed before being used by the HMAC algorithm."))
            == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    /// A key of exactly one block is used as it is, one byte longer is hashed (checked against
    /// Python's hmac); a message given in pieces has the code of the whole.
    @Test func blockSizedKeysAndPieces() {
        #expect(code(key: Array(0..<64), bytes("reel")) == "a8284fb69ffba61fcbe3e491b33f79e8b55dff39ef25b1e44cab53c2a84db450")
        #expect(code(key: Array(0..<65), bytes("reel")) == "b6099f9c96a6ffc62bd8f7e25a079406b5eb9d1b7ee3d14b00729e67a5ab3be8")
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = HMACSHA256(key: bytes("secret"))
        pieces.update("")
        pieces.update(message[..<7])
        pieces.update(message[7...])
        #expect(pieces.hexCode() == code(key: bytes("secret"), message))
    }
}
