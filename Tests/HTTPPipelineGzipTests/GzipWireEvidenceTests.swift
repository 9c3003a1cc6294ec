import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// What `Content-Length` says about a body under a gzip or deflate label, and what the
/// middleware makes of a body that does not decode: the wire bytes (an error), bytes a transport
/// already inflated (passed on), or no evidence either way.
@Suite struct GzipWireEvidenceTests {
    /// Compressed bytes that are not what their label says.
    enum Garbage: String, CaseIterable, CustomTestStringConvertible {
        case zlibStream, rawDeflateStream, gzipWithoutItsMagic, randomBytes

        var testDescription: String { rawValue }

        func bytes() throws -> Data {
            switch self {
            case .zlibStream: return try Support.fixture("python-zlib.json.zz")
            case .rawDeflateStream: return try Support.fixture("python-raw-deflate.json.deflate")
            case .gzipWithoutItsMagic: return try Support.fixture("python-gzip.json.gz").dropFirst(2)
            case .randomBytes:
                var rng = SeededRandomNumberGenerator(seed: 16)
                return Data((0..<300).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            }
        }
    }

    /// Headers that vouch for the bytes being the wire bytes.
    func wire(_ coding: String, _ body: Data) -> [String: String] {
        ["Content-Encoding": coding, "Content-Length": String(body.count)]
    }

    @Test(
        "Compressed bytes under a gzip label without its magic bytes, their length vouched for by Content-Length, are an error",
        arguments: Garbage.allCases)
    func compressedGarbageUnderAGzipLabelWithAMatchingLengthIsAnError(_ garbage: Garbage) async throws {
        let body = try Data(garbage.bytes())
        let error = await Support.gzipError(body, headers: wire("gzip", body))
        #expect(error == .badHeader(reason: "the body does not start with the gzip magic bytes"))
    }

    @Test(
        "Compressed bytes under a deflate label that do not decode, their length vouched for by Content-Length, are an error",
        arguments: [Garbage.gzipWithoutItsMagic, .randomBytes])
    func compressedGarbageUnderADeflateLabelWithAMatchingLengthIsAnError(_ garbage: Garbage) async throws {
        let body = try Data(garbage.bytes())
        #expect(await Support.gzipError(body, headers: wire("deflate", body)) != nil)
        let gzip = try Support.fixture("python-gzip.json.gz")
        #expect(await Support.gzipError(gzip, headers: wire("deflate", gzip)) != nil)
    }

    @Test(
        "Without a Content-Length, compressed bytes under a gzip label that lack its magic bytes pass as plain: nothing tells them from a body URLSession inflated"
    )
    func withoutALengthABodyLackingTheMagicPassesAsPlain() async throws {
        let body = try Garbage.zlibStream.bytes()
        let (data, response) = try await Support.send(body, headers: ["Content-Encoding": "gzip"])
        #expect(data == body)
        #expect(response.fields["Content-Encoding"] == nil)
    }

    @Test("Without a Content-Length, a body that starts with the gzip magic bytes and then fails is still an error")
    func withoutALengthABodyWithTheMagicIsDecodedStrictly() async throws {
        let body = try Support.fixture("python-gzip.json.gz").dropLast(8)
        #expect(await Support.gzipError(Data(body), headers: ["Content-Encoding": "gzip"]) == .truncated)
    }
}
