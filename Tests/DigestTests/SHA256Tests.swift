import Digest
import Foundation
import Testing

struct SHA256Tests {
    func digest(_ text: String) -> String {
        var hash = SHA256()
        hash.update(text)
        return hash.hexDigest()
    }

    @Test func knownVectors() {
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(digest(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// However the bytes are cut into updates, the digest is the same; a file's digest is that
    /// of its bytes (checked against coreutils' sha256sum).
    @Test func piecesAndFiles() throws {
        let bytes = (0..<300_001).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        var whole = SHA256()
        whole.update(bytes)
        let expected = whole.hexDigest()
        for piece in [1, 63, 64, 65, 1000, 65_536] {
            var hash = SHA256()
            var start = 0
            while start < bytes.count {
                hash.update(bytes[start..<min(bytes.count, start + piece)])
                start += piece
            }
            #expect(hash.hexDigest() == expected, "pieces of \(piece)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-sha-\(getpid()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let coreutils = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        #expect(try SHA256.hexDigest(ofFileAt: path) == String(coreutils))
        #expect(expected == String(coreutils))
    }
}
