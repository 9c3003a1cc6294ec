import Foundation
import Testing

@testable import HTTPPipelineCache

/// FIPS 180-4's examples and a multi-block message.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func theDigestMatchesTheStandardsExamples(message: String, expected: String) {
        #expect(SHA256.hex(message) == expected)
    }

    @Test func aMillionAsDigestsAsTheStandardSays() {
        #expect(
            SHA256.hex(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

/// Hashing in pieces gives the digest of the whole, whatever the pieces' boundaries.
@Suite struct SHA256PiecesTests {
    @Test(arguments: [1, 7, 63, 64, 65, 1_000])
    func aMessageHashedInPiecesDigestsAsTheWhole(pieceSize: Int) {
        let message = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = SHA256()
        for start in stride(from: 0, to: message.count, by: pieceSize) {
            hasher.update(Data(message[start..<min(start + pieceSize, message.count)]))
        }

        #expect(hasher.finalize() == SHA256.digest(message))
        #expect(SHA256.hex(SHA256.digest(Array("abc".utf8))) == SHA256.hex("abc"))
    }
}
