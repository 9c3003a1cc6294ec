import Testing

@testable import HTTPPipeline

@Suite("The HTTP token grammar")
struct HTTPGrammarTests {
    /// RFC 9110 §5.6.2, written out as the RFC lists it.
    private static let tokenCharacters = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    @Test func everyByteIsATokenCharacterExactlyWhenRFC9110ListsIt() {
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPGrammar.isTokenCharacter(byte) == Self.tokenCharacters.contains(byte), "byte \(byte)")
        }
    }

    @Test func aTokenIsOneOrMoreTokenCharactersContiguousOrNot() {
        #expect(HTTPGrammar.isToken("X-Request-ID".utf8))
        #expect(HTTPGrammar.isToken(Array("Accept-Encoding".utf8)))
        #expect(HTTPGrammar.isToken(AnyCollection("a".utf8)))
        #expect(!HTTPGrammar.isToken("".utf8))
        #expect(!HTTPGrammar.isToken("Bad Name".utf8))
        #expect(!HTTPGrammar.isToken(AnyCollection("Bad:Name".utf8)))
        #expect(!HTTPGrammar.isToken("Ünicode".utf8))
    }
}
