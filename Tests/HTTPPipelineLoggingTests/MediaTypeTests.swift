import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

@Suite struct MediaTypeTests {
    @Test(
        "The byte-wise reading of an ASCII Content-Type gives what the character-wise one gives, for 20,000 random values"
    )
    func asciiFastPathMatchesTheGeneralOne() {
        var random = SeededRandomNumberGenerator(seed: 0x3ED1A)
        let pieces = [
            "Application/JSON", "text/plain", "; charset=utf-8", " ", ";", "\t", "+xml", "vnd.api+json", "*", "\"", "(",
            "x",
        ]
        for _ in 0..<20_000 {
            var value = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                if Bool.random(using: &random) {
                    value += pieces[Int.random(in: 0..<pieces.count, using: &random)]
                } else {
                    value.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
                }
            }
            #expect(Redaction.mediaType(value) == Redaction.mediaTypeByScalars(value), "\(value.debugDescription)")
        }
        #expect(Redaction.mediaType("Application/JSON; charset=utf-8") == "application/json")
        #expect(Redaction.mediaType(String(repeating: "a", count: 300))?.count == 100)
        #expect(Redaction.mediaType(";x") == nil)
    }

    @Test("A Content-Type that is not ASCII is read character by character: the Kelvin sign lowercases to k")
    func nonASCIIIsReadByCharacters() {
        #expect(Redaction.mediaType("application/\u{212A}ey") == "application/key")
    }
}
