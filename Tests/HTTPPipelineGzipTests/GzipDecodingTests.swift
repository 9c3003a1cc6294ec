import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import Testing

/// Headers, trailers, stacking and the typed errors of decoding.
@Suite struct GzipDecodingTests {
    /// `body` with the byte at `offset` (from the start, or from the end when negative) XOR-ed.
    func flipping(_ body: Data, at offset: Int, mask: UInt8 = 0x01) -> Data {
        var bytes = [UInt8](body)
        let index = offset >= 0 ? offset : bytes.count + offset
        bytes[index] ^= mask
        return Data(bytes)
    }

    func gzip(_ data: Data) throws -> Data { try Deflater.compress(data, format: .gzip) }

    /// Headers that vouch for the bytes being the wire bytes.
    func wire(_ coding: String, _ body: Data) -> [String: String] {
        ["Content-Encoding": coding, "Content-Length": String(body.count)]
    }

    @Test func wrongCRCInTheTrailerIsAChecksumMismatch() async throws {
        let body = flipping(try Support.fixture("python-gzip.json.gz"), at: -8)
        #expect(await Support.gzipError(body, headers: wire("gzip", body)) == .checksumMismatch(.crc32))
    }

    @Test func wrongLengthInTheTrailerIsAChecksumMismatch() async throws {
        let body = flipping(try Support.fixture("python-gzip.json.gz"), at: -4)
        #expect(await Support.gzipError(body, headers: wire("gzip", body)) == .checksumMismatch(.length))
    }

    @Test func wrongHeaderCRCIsAChecksumMismatch() async throws {
        let body = flipping(try Support.fixture("crafted-fhcrc.json.gz"), at: 10)
        #expect(await Support.gzipError(body, headers: wire("gzip", body)) == .checksumMismatch(.headerCRC))
    }

    @Test func wrongAdlerInAZlibTrailerIsAChecksumMismatch() async throws {
        let body = flipping(try Support.fixture("python-zlib.json.zz"), at: -1)
        #expect(await Support.gzipError(body, headers: wire("deflate", body)) == .checksumMismatch(.adler32))
    }

    @Test func corruptDeflateDataCarriesZlibsMessage() async throws {
        // 0x07 makes the first block of the member "final, reserved type 3": always invalid.
        let original = try Support.fixture("python-gzip.json.gz")
        var bytes = [UInt8](original)
        bytes[10] = 0x07
        let error = await Support.gzipError(Data(bytes), headers: wire("gzip", original))
        #expect(error == .corrupt(message: "invalid block type"))
    }

    @Test func gzipCutShortAnywhereAfterItsMagicIsTruncated() async throws {
        let body = try Support.fixture("crafted-all-flags.json.gz")
        for length in 2..<body.count {
            let prefix = body.prefix(length)
            let error = await Support.gzipError(prefix, headers: wire("gzip", prefix))
            #expect(error == .truncated, "cut at \(length)")
        }
    }

    @Test func zeroPaddingAfterTheLastMemberIsIgnored() async throws {
        let body = try Support.fixture("python-gzip.json.gz") + Data(count: 512)
        let (data, _) = try await Support.send(body, headers: wire("gzip", body))
        #expect(data == (try Support.sample()))
    }

    @Test func otherBytesAfterTheLastMemberAreTrailingData() async throws {
        let body = try Support.fixture("python-gzip.json.gz") + Data("junk\n".utf8)
        #expect(await Support.gzipError(body, headers: wire("gzip", body)) == .trailingData(byteCount: 5))
    }

    @Test func bytesAfterAZlibStreamAreTrailingData() async throws {
        let body = try Support.fixture("python-zlib.json.zz") + Data([0x01, 0x02])
        #expect(await Support.gzipError(body, headers: wire("deflate", body)) == .trailingData(byteCount: 2))
    }

    @Test func reservedFlagBitsAreABadHeader() async throws {
        let body = flipping(try Support.fixture("python-gzip.json.gz"), at: 3, mask: 0x20)
        #expect(
            await Support.gzipError(body, headers: wire("gzip", body))
                == .badHeader(reason: "reserved flag bits are set"))
    }

    @Test func aMethodOtherThanDeflateIsABadHeader() async throws {
        let body = flipping(try Support.fixture("python-gzip.json.gz"), at: 2, mask: 0x0F)
        #expect(
            await Support.gzipError(body, headers: wire("gzip", body))
                == .badHeader(reason: "compression method 7 is not deflate"))
    }

    @Test func stackedGzipCodingsDecodeLastAppliedFirst() async throws {
        let sample = try Support.sample()
        let twice = try gzip(try gzip(sample))
        let (data, response) = try await Support.send(twice, headers: wire("gzip, gzip", twice))
        #expect(data == sample)
        #expect(response.fields["Content-Encoding"] == nil)
    }

    @Test func deflateThenGzipDecodesInTheListedOrder() async throws {
        let sample = try Support.sample()
        let body = try gzip(try Deflater.compress(sample, format: .zlib))
        let (data, _) = try await Support.send(body, headers: wire("deflate, gzip", body))
        #expect(data == sample)
    }

    @Test func moreStackedCodingsThanTheMaximumAreRefused() async throws {
        var body = try Support.sample()
        for _ in 0..<4 { body = try gzip(body) }
        let error = await Support.gzipError(body, headers: wire("gzip, gzip, gzip, gzip", body))
        #expect(error == .tooManyCodings(count: 4, maximum: GzipOptions.maximumStackedCodings))
    }

    @Test func anInnerLayerThatIsNotWhatTheHeaderSaysIsAnError() async throws {
        let body = try gzip(try Support.sample())
        let error = await Support.gzipError(body, headers: wire("gzip, gzip", body))
        #expect(error == .badHeader(reason: "the body does not start with the gzip magic bytes"))
    }

    @Test(arguments: ["br", "zstd", "compress", "br, gzip", "gzip, br", "exotic"])
    func unsupportedCodingsPassThroughUntouchedWithTheirHeader(_ coding: String) async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let (data, response) = try await Support.send(body, headers: wire(coding, body))
        #expect(data == body)
        #expect(response.fields["Content-Encoding"] == coding)
        #expect(response.fields["Content-Length"] == String(body.count))
    }

    @Test func anUnsupportedCodingWithoutAContentLengthPassesThroughWithItsHeader() async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let (data, response) = try await Support.send(body, headers: ["Content-Encoding": "br"])
        #expect(data == body)
        #expect(response.fields["Content-Encoding"] == "br")
    }

    @Test(arguments: ["GZIP", " x-gzip ", "gzip, identity", "identity, gzip"])
    func codingNamesAreCaseInsensitiveAndIdentityIsIgnored(_ coding: String) async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let (data, _) = try await Support.send(body, headers: wire(coding, body))
        #expect(data == (try Support.sample()))
    }

    @Test func anEmptyBodyUnderAContentEncodingIsLeftAlone() async throws {
        let headers = ["Content-Encoding": "gzip", "Content-Length": "491"]
        let (data, response) = try await Support.send(Data(), headers: headers)
        #expect(data.isEmpty)
        #expect(response.fields["Content-Encoding"] == "gzip")
    }

    @Test func rawDeflateWhoseFirstBytesLookLikeAZlibHeaderStillDecodes() async throws {
        // A stored, non-final block whose ignored padding bits make the first byte 0x78, and
        // whose length's low byte makes 0x78 0x01 a valid zlib header; then an empty final block.
        // zlib's reading fails ("invalid stored block lengths"); the raw reading gives "a".
        let raw = Data([0x78, 0x01, 0x00, 0xFE, 0xFF, 0x61, 0x03, 0x00])
        let (data, _) = try await Support.send(raw, headers: wire("deflate", raw))
        #expect(data == Data("a".utf8))
    }

    @Test func errorDescriptionsNameTheProblemWithoutBodyBytes() {
        let errors: [GzipError] = [
            .truncated, .corrupt(message: "invalid distance too far back"), .badHeader(reason: "x"),
            .checksumMismatch(.crc32), .trailingData(byteCount: 3), .limitExceeded(.decodedSize(10)),
            .limitExceeded(.expansionRatio(100)), .tooManyCodings(count: 4, maximum: 3), .zlibFailure(message: "m"),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
        }
        #expect(GzipError.checksumMismatch(.crc32).description == "compressed body fails its CRC-32 check")
    }
}
