import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Streamed bodies are decoded as their bytes arrive, split anywhere, with the checks and limits
/// of the buffered path.
@Suite struct GzipStreamingTests {
    /// A committed fixture from another encoder, the coding it is served with, and what it decodes to.
    struct Fixture: Sendable, CustomTestStringConvertible {
        let file: String
        let coding: String
        var decodesToTwoFiles = false
        var testDescription: String { "\(file) as \(coding)" }

        func expected() throws -> Data {
            let sample = try Streamed.fixture("sample.json")
            return decodesToTwoFiles ? sample + (try Streamed.fixture("second.txt")) : sample
        }
    }

    static let smallFixtures: [Fixture] = [
        Fixture(file: "python-gzip.json.gz", coding: "gzip"),
        Fixture(file: "python-gzip-fname.json.gz", coding: "gzip"),
        Fixture(file: "python-zlib.json.zz", coding: "deflate"),
        Fixture(file: "python-raw-deflate.json.deflate", coding: "deflate"),
        Fixture(file: "crafted-fextra.json.gz", coding: "gzip"),
        Fixture(file: "crafted-fcomment.json.gz", coding: "gzip"),
        Fixture(file: "crafted-fhcrc.json.gz", coding: "gzip"),
        Fixture(file: "crafted-all-flags.json.gz", coding: "x-gzip"),
        Fixture(file: "gnu-gzip-name.json.gz", coding: "gzip"),
        Fixture(file: "pigz.json.gz", coding: "gzip"),
        Fixture(file: "pigz-zlib.json.zz", coding: "deflate"),
        Fixture(file: "zopfli.json.gz", coding: "gzip"),
        Fixture(file: "zopfli-zlib.json.zz", coding: "deflate"),
        Fixture(file: "zopfli-deflate.json.deflate", coding: "deflate"),
        Fixture(file: "multi-member.gz", coding: "gzip", decodesToTwoFiles: true),
    ]

    static let gzip: HTTPFields = [.contentEncoding: "gzip"]

    /// The three-member gzip fixture (Python, one member with every header flag) and what it decodes to.
    static func members() throws -> (wire: Data, decoded: Data) {
        let wire = try Streamed.fixture("stream-members.json.gz")
        return (wire, try GzipDecoder.decode(wire, as: .gzip))
    }

    // MARK: - Split anywhere

    @Test(arguments: smallFixtures)
    func aFixtureStreamedOneByteAtATimeDecodesAsTheBufferedPathDecodesIt(_ fixture: Fixture) async throws {
        let wire = try Streamed.fixture(fixture.file)
        let fields: HTTPFields = [.contentEncoding: fixture.coding]
        let streamed = await Streamed.streamedOutcome(Streamed.chunks(wire, every: 1), fields: fields)
        #expect(streamed == .body(try fixture.expected()))
        #expect(streamed == (await Streamed.bufferedOutcome(wire, fields: fields)))
    }

    @Test(arguments: smallFixtures)
    func aFixtureCutInTwoAtEveryByteDecodesToTheSameBytes(_ fixture: Fixture) async throws {
        let wire = try Streamed.fixture(fixture.file)
        let expected = try fixture.expected()
        let fields: HTTPFields = [.contentEncoding: fixture.coding]
        for cut in 1..<wire.count {
            let outcome = await Streamed.streamedOutcome(Streamed.chunks(wire, cutAt: [cut]), fields: fields)
            #expect(outcome == .body(expected), "cut at \(cut)")
        }
    }

    @Test(arguments: smallFixtures)
    func everyTruncationOfAFixtureEndsAsTheBufferedPathEndsIt(_ fixture: Fixture) async throws {
        let wire = try Streamed.fixture(fixture.file)
        let fields: HTTPFields = [.contentEncoding: fixture.coding]
        for length in 0..<wire.count {
            let cut = wire.prefix(length)
            let streamed = await Streamed.streamedOutcome(Streamed.chunks(cut, every: 7), fields: fields)
            let buffered = await Streamed.bufferedOutcome(cut, fields: fields)
            #expect(streamed == buffered, "first \(length) bytes")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func largeMultiMemberGzipFromPythonAtRandomBoundariesDecodesAsTheBufferedDecoderDoes(_ seed: UInt64) async throws {
        let (wire, decoded) = try Self.members()
        #expect(decoded.count > 512 << 10 - 1_000)
        let response = try await Streamed.send(
            Streamed.response(Streamed.randomChunks(wire, seed: seed), fields: Self.gzip))
        let read = await Streamed.read(response.body)
        #expect(read.error == nil)
        #expect(read.data == decoded)
        #expect(read.chunkSizes.count > 2)
        #expect(read.chunkSizes.allSatisfy { $0 > 0 && $0 <= 120 << 10 })
    }

    @Test(arguments: [4, 5] as [UInt64])
    func largeZlibStreamFromPythonAtRandomBoundariesDecodesAsTheBufferedDecoderDoes(_ seed: UInt64) async throws {
        let wire = try Streamed.fixture("stream.json.zz")
        let decoded = try GzipDecoder.decode(wire, as: .deflate)
        let fields: HTTPFields = [.contentEncoding: "deflate"]
        let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: seed), fields: fields)
        #expect(outcome == .body(decoded))
        #expect(decoded == (try Self.members().decoded))
    }

    @Test func largeRawDeflateAtRandomBoundariesDecodes() async throws {
        let decoded = try Self.members().decoded
        let wire = try Deflater.compress(decoded, format: .raw, level: 9)
        let fields: HTTPFields = [.contentEncoding: "deflate"]
        let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: 6), fields: fields)
        #expect(outcome == .body(decoded))
    }

    @Test func aHeaderWithEveryFieldArrivingOneByteAtATimeDecodes() async throws {
        let (wire, decoded) = try Self.members()
        // The second member sets every flag: FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT (0x1f).
        let start = try #require(wire.range(of: Data([0x1f, 0x8b, 0x08, 0x1f]))?.lowerBound)
        // 10 fixed bytes, XLEN and 604 extra bytes, a 713-byte name, a 901-byte comment, FHCRC.
        let headerEnd = start + 10 + 2 + 604 + 713 + 901 + 2
        var cuts = Array((start - 2)...(headerEnd + 2))
        cuts.insert(start / 2, at: 0)
        let outcome = await Streamed.streamedOutcome(Streamed.chunks(wire, cutAt: cuts), fields: Self.gzip)
        #expect(outcome == .body(decoded))
    }

    /// Seeded mutations of the small fixtures (bytes changed, cut, inserted, members repeated),
    /// streamed in random chunks: every one ends as the buffered path ends it. Below the 1 MiB
    /// ratio floor and the 4 KiB deflate probe window, the two paths must agree exactly.
    @Test func mutatedSmallBodiesStreamedInRandomChunksEndAsTheBufferedPathEndsThem() async throws {
        var rng = SeededRandomNumberGenerator(seed: 17)
        let fixtures = try Self.smallFixtures.map { (try Streamed.fixture($0.file), $0.coding) }
        var disagreements: [String] = []
        for round in 0..<1_500 {
            let (original, coding) = fixtures[Int(rng.next() % UInt64(fixtures.count))]
            var wire = original
            for _ in 0..<(1 + rng.next() % 3) {
                let position = wire.startIndex + Int(rng.next() % UInt64(wire.count))
                switch rng.next() % 6 {
                case 0: wire[position] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8))
                case 1: wire[position] = UInt8(truncatingIfNeeded: rng.next())
                case 2: wire = wire.prefix(upTo: position)
                case 3: wire.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
                case 4: wire += original
                default: wire += Data(count: Int(rng.next() % 5))
                }
                if wire.isEmpty { wire = original }
            }
            let fields: HTTPFields = [.contentEncoding: coding]
            let chunks = Streamed.randomChunks(wire, seed: rng.next(), largest: 64)
            let streamed = await Streamed.streamedOutcome(chunks, fields: fields)
            let buffered = await Streamed.bufferedOutcome(wire, fields: fields)
            if streamed != buffered {
                disagreements.append("round \(round): streamed \(streamed), buffered \(buffered)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    // MARK: - What follows the last member

    @Test func zeroPaddingAfterTheLastMemberIsIgnoredWhereverItIsCut() async throws {
        let (wire, decoded) = try Self.members()
        let padded = wire + Data(count: 3_000)
        for seed in [7, 8] as [UInt64] {
            let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(padded, seed: seed), fields: Self.gzip)
            #expect(outcome == .body(decoded))
        }
        let separate = await Streamed.streamedOutcome([wire, Data(count: 1), Data(count: 9)], fields: Self.gzip)
        #expect(separate == .body(decoded))
    }

    @Test(arguments: [Data([0, 0, 7, 0]), Data([0x1f]), Data([0x1f, 0x8c, 0, 0]), Data("junk".utf8)])
    func bytesOtherThanPaddingAfterTheLastMemberAreTrailingDataCountedAsTheBufferedPathCountsThem(
        _ tail: Data
    ) async throws {
        let wire = try Streamed.fixture("python-gzip.json.gz") + tail
        let streamed = await Streamed.streamedOutcome(Streamed.chunks(wire, every: 5), fields: Self.gzip)
        #expect(streamed == .failure(.trailingData(byteCount: tail.count)))
        #expect(streamed == (await Streamed.bufferedOutcome(wire, fields: Self.gzip)))
    }

    // MARK: - Broken streams

    @Test func aTruncatedStreamYieldsWhatItHasThenThrowsTruncatedWhenItEnds() async throws {
        let (wire, decoded) = try Self.members()
        let cut = wire.prefix(wire.count - 100)
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(cut, every: 16 << 10), fields: Self.gzip))
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .truncated)
        #expect(read.data.count > 256 << 10)
        #expect(decoded.starts(with: read.data))
    }

    @Test func aTruncatedDeflateStreamPastTheProbeThrowsTruncated() async throws {
        let wire = try Streamed.fixture("stream.json.zz")
        let cut = wire.prefix(wire.count / 2)
        let outcome = await Streamed.streamedOutcome(
            Streamed.chunks(cut, every: 4_096), fields: [.contentEncoding: "deflate"])
        #expect(outcome == .failure(.truncated))
    }

    /// The members fixture with one byte changed at `offset` (counted from the end when negative).
    static func members(changing offset: Int, to value: UInt8? = nil) throws -> Data {
        var wire = try members().wire
        let index = wire.startIndex + (offset < 0 ? wire.count + offset : offset)
        wire[index] = value ?? wire[index] ^ 0x55
        return wire
    }

    @Test func aWrongCRC32InALastMemberTrailerThrowsAChecksumMismatchAfterTheMembersBefore() async throws {
        let wire = try Self.members(changing: -8)
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(wire, every: 8 << 10), fields: Self.gzip))
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .checksumMismatch(.crc32))
        #expect(read.data.count > 300 << 10)
    }

    @Test func aWrongLengthInATrailerThrowsALengthMismatch() async throws {
        let wire = try Self.members(changing: -2)
        let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: 9), fields: Self.gzip)
        #expect(outcome == .failure(.checksumMismatch(.length)))
    }

    @Test func aChangedCommentUnderAHeaderCRCThrowsAHeaderChecksumMismatch() async throws {
        let (original, _) = try Self.members()
        let start = try #require(original.range(of: Data("a comment a comment".utf8))?.lowerBound)
        let wire = try Self.members(changing: start - original.startIndex + 4, to: UInt8(ascii: "X"))
        let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: 10), fields: Self.gzip)
        #expect(outcome == .failure(.checksumMismatch(.headerCRC)))
    }

    /// The method byte (9 is not deflate) and the flag byte (reserved bits set) of the second member.
    @Test(arguments: [(2, UInt8(9)), (3, UInt8(0xFF))])
    func aBadMethodOrReservedFlagsInALaterMemberThrowTheBufferedDecodersBadHeader(
        _ offset: Int, _ value: UInt8
    ) async throws {
        let (original, _) = try Self.members()
        let second = try #require(original.range(of: Data([0x1f, 0x8b, 0x08, 0x1f]))?.lowerBound)
        let wire = try Self.members(changing: second - original.startIndex + offset, to: value)
        let expected = try #require(Self.bufferedError(wire))
        let streamed = await Streamed.streamedOutcome(Streamed.chunks(wire, every: 1_000), fields: Self.gzip)
        #expect(streamed == .failure(expected))
        #expect(expected.isBadHeader, "expected a bad header, got \(expected)")
    }

    @Test(arguments: [1_000, 40_000, 88_000])
    func corruptDeflateDataThrowsWhatTheBufferedDecoderThrows(_ offset: Int) async throws {
        let wire = try Self.members(changing: offset)
        let expected = try #require(Self.bufferedError(wire))
        let streamed = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: 11), fields: Self.gzip)
        #expect(streamed == .failure(expected))
    }

    static func bufferedError(_ wire: Data) -> GzipError? {
        do {
            _ = try GzipDecoder.decode(wire, as: .gzip)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Limits

    @Test func aGigabyteBombIsStoppedAtTheDecodedSizeLimitWithNothingPastItYielded() async throws {
        let limit = 8 << 20
        let sent = Locked(0)
        let bomb = ZeroBomb(zeros: 1 << 30, sent: sent)
        let options = GzipOptions.default.limiting(decodedSize: limit, expansionRatio: Int.max)
        let response = try await Streamed.send(
            HTTPResponse(status: 200, fields: Self.gzip, body: HTTPBody(stream: bomb)), options: options)
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .limitExceeded(.decodedSize(limit)))
        #expect(read.data.count <= limit)
        #expect(read.data.count > limit - 120 << 10)
        #expect(read.chunkSizes.allSatisfy { $0 <= 120 << 10 })
        #expect(!read.data.contains { $0 != 0 })
        // A small part of the bomb's million compressed bytes was read.
        #expect(sent.value < 256 << 10)
    }

    @Test func aBombUnderTheDefaultsIsStoppedByTheRatioToTheBytesReceivedSoFar() async throws {
        let sent = Locked(0)
        let bomb = ZeroBomb(zeros: 1 << 30, sent: sent)
        let response = try await Streamed.send(
            HTTPResponse(status: 200, fields: Self.gzip, body: HTTPBody(stream: bomb)))
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .limitExceeded(.expansionRatio(100)))
        // Past the floor (less the step that passed the limit, never handed out), never past the
        // limit for what was received.
        #expect(read.data.count > GzipOptions.ratioFloor - 120 << 10)
        #expect(read.data.count <= GzipOptions.default.outputLimit(forWireSize: sent.value).bytes)
        #expect(read.chunkSizes.allSatisfy { $0 <= 120 << 10 })
    }

    @Test func theRatioLimitStopsABombThatFollowsOrdinaryDataMidStream() async throws {
        let text = try Self.members().decoded
        var deflater = try Deflater(format: .gzip)
        var wire = Data()
        for _ in 0..<4 { try deflater.compress(text, flush: .none, into: &wire) }
        let zeros = Data(count: 1 << 20)
        for index in 0..<100 { try deflater.compress(zeros, flush: index == 99 ? .finish : .none, into: &wire) }
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(wire, every: 16 << 10), fields: Self.gzip))
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .limitExceeded(.expansionRatio(100)))
        // The ordinary part came through whole before the bomb was stopped.
        #expect(read.data.count > 4 * text.count)
        #expect(read.data.prefix(text.count) == text)
        #expect(read.data.count <= GzipOptions.default.outputLimit(forWireSize: wire.count).bytes)
    }

    @Test func theRatioIsNotCheckedBelowTheFloor() async throws {
        let zeros = Data(count: GzipOptions.ratioFloor - 1)
        let wire = try Deflater.compress(zeros, format: .gzip)
        #expect(wire.count * 100 < zeros.count)
        let outcome = await Streamed.streamedOutcome(Streamed.chunks(wire, every: 100), fields: Self.gzip)
        #expect(outcome == .body(zeros))
    }

    @Test func aBodyExactlyAtTheDecodedSizeLimitDecodesAndOneByteOverIsRefused() async throws {
        let (wire, decoded) = try Self.members()
        let chunks = Streamed.chunks(wire, every: 4_000)
        let atLimit = GzipOptions.default.limiting(decodedSize: decoded.count, expansionRatio: 1_000)
        #expect(await Streamed.streamedOutcome(chunks, fields: Self.gzip, options: atLimit) == .body(decoded))
        let below = GzipOptions.default.limiting(decodedSize: decoded.count - 1, expansionRatio: 1_000)
        let response = try await Streamed.send(Streamed.response(chunks, fields: Self.gzip), options: below)
        let read = await Streamed.read(response.body)
        #expect(read.gzipError == .limitExceeded(.decodedSize(decoded.count - 1)))
        #expect(read.data.count <= decoded.count - 1)
        #expect(decoded.starts(with: read.data))
    }

    // MARK: - The stream from below

    @Test func anErrorFromTheStreamMidBodyReachesTheReaderAfterWhatWasDecoded() async throws {
        let (wire, decoded) = try Self.members()
        let response = try await Streamed.send(
            Streamed.response(
                Streamed.chunks(wire, every: 16 << 10), fields: Self.gzip, failure: (3, StreamFailure(id: 1))))
        let read = await Streamed.read(response.body)
        #expect(read.error as? StreamFailure == StreamFailure(id: 1))
        #expect(!read.data.isEmpty)
        #expect(decoded.starts(with: read.data))
    }

    @Test func anErrorFromTheStreamBeforeItsFirstBytesIsThrownBySend() async throws {
        let wire = try Streamed.fixture("python-gzip.json.gz")
        await #expect(throws: StreamFailure(id: 2)) {
            _ = try await Streamed.send(
                Streamed.response([wire], fields: Self.gzip, failure: (0, StreamFailure(id: 2))))
        }
    }

    @Test func aSinglePassBodyThroughGzipIsReadOnceAndItsDecodedBodyOnlyOnce() async throws {
        let (wire, decoded) = try Self.members()
        let opened = Locked(0)
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(wire, every: 16 << 10), fields: Self.gzip, opened: opened))
        #expect(!response.body.isReplayable)
        let first = await Streamed.read(response.body)
        #expect(first.data == decoded)
        #expect(opened.value == 1)
        let second = await Streamed.read(response.body)
        #expect(second.error as? HTTPBodyError == .alreadyConsumed)
        #expect(opened.value == 1)
    }

    @Test func aReplayableBodyDecodesToTheSameBytesOnEveryRead() async throws {
        let (wire, decoded) = try Self.members()
        let opened = Locked(0)
        let response = try await Streamed.send(
            Streamed.response(
                Streamed.randomChunks(wire, seed: 12), fields: Self.gzip, replayable: true, opened: opened))
        #expect(response.body.isReplayable)
        #expect(await Streamed.read(response.body).data == decoded)
        #expect(await Streamed.read(response.body).data == decoded)
        #expect(opened.value == 2)
    }

    @Test func aBodyCanBeDroppedAfterItsFirstChunk() async throws {
        let (wire, _) = try Self.members()
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(wire, every: 1 << 10), fields: Self.gzip))
        var iterator = response.body.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.isEmpty == false)
    }

    // MARK: - The head and the plain-body rules

    @Test func theDecodedHeadKeepsStatusAndFieldsLessTheCodingAndHasNoLength() async throws {
        let wire = try Streamed.fixture("python-gzip.json.gz")
        let fields: HTTPFields = [.contentEncoding: "gzip", .contentType: "application/json", .eTag: "\"v1\""]
        let response = try await Streamed.send(Streamed.response([wire], fields: fields, status: 201))
        #expect(response.status == 201)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == nil)
        #expect(response.fields["Content-Type"] == "application/json")
        #expect(response.fields["ETag"] == "\"v1\"")
        #expect(response.body.length == nil)
        #expect(await Streamed.read(response.body).data == (try Streamed.fixture("sample.json")))
    }

    @Test func aSmallStreamedBodyUnderAContentLengthIsDecodedWhole() async throws {
        let wire = try Streamed.fixture("gnu-gzip-name.json.gz")
        let sample = try Streamed.fixture("sample.json")
        let fields: HTTPFields = [.contentEncoding: "gzip", .contentLength: String(wire.count)]
        let response = try await Streamed.send(Streamed.response(Streamed.chunks(wire, every: 50), fields: fields))
        #expect(response.body.bufferedData == sample)
        #expect(response.fields["Content-Length"] == String(sample.count))
        #expect(response.fields["Content-Encoding"] == nil)
    }

    /// 300 KiB of bytes that do not compress, the same every time.
    static func random(_ count: Int = 300 << 10) -> Data {
        var rng = SeededRandomNumberGenerator(seed: 13)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    }

    @Test(arguments: ["gzip, gzip", "deflate, gzip", "gzip, deflate"])
    func stackedCodingsStreamedDecodeLikeTheBufferedPath(_ field: String) async throws {
        let plain = try Self.members().decoded
        var wire = plain
        for coding in field.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            wire = try Deflater.compress(wire, format: coding == "gzip" ? .gzip : .zlib)
        }
        let fields: HTTPFields = [.contentEncoding: field]
        let outcome = await Streamed.streamedOutcome(Streamed.randomChunks(wire, seed: 14), fields: fields)
        #expect(outcome == .body(plain))
        #expect(outcome == (await Streamed.bufferedOutcome(wire, fields: fields)))
    }

    @Test func tooManyStackedCodingsOnAStreamAreRefusedBySend() async throws {
        let fields: HTTPFields = [.contentEncoding: "gzip, gzip, gzip, gzip"]
        await #expect(throws: GzipError.tooManyCodings(count: 4, maximum: 3)) {
            _ = try await Streamed.send(Streamed.response([Data([0x1f, 0x8b])], fields: fields))
        }
    }

    @Test func aStreamedPartialContentResponseIsHandedOnUntouched() async throws {
        let wire = try Streamed.fixture("python-gzip.json.gz").prefix(100)
        let fields: HTTPFields = [.contentEncoding: "gzip", .contentRange: "bytes 0-99/491"]
        let response = try await Streamed.send(Streamed.response([Data(wire)], fields: fields, status: 206))
        #expect(response.status == 206)
        #expect(response.fields["Content-Encoding"] == "gzip")
        #expect(await Streamed.read(response.body).data == wire)
    }

    @Test func anEmptyStreamedBodyIsHandedOnWithItsHead() async throws {
        let response = try await Streamed.send(Streamed.response([], fields: Self.gzip))
        #expect(response.fields["Content-Encoding"] == "gzip")
        #expect(await Streamed.read(response.body).data.isEmpty)
    }

    @Test func aStreamedGzipDownloadIsDecodedWhenAskedAsAnOctetStream() async throws {
        let (wire, decoded) = try Self.members()
        let fields: HTTPFields = [.contentType: "application/gzip"]
        let chunks = Streamed.randomChunks(wire, seed: 15)
        let response = try await Streamed.send(
            Streamed.response(chunks, fields: fields), options: .default.decodingGzipDownloads())
        #expect(response.fields["Content-Type"] == "application/octet-stream")
        #expect(response.fields["Content-Length"] == nil)
        #expect(await Streamed.read(response.body).data == decoded)
        let opened = Locked(0)
        let untouched = try await Streamed.send(Streamed.response(chunks, fields: fields, opened: opened))
        #expect(opened.value == 0)
        #expect(untouched.fields["Content-Type"] == "application/gzip")
        #expect(await Streamed.read(untouched.body).data == wire)
    }

    @Test func aStreamedDownloadThatIsNotGzipIsHandedOnUnchanged() async throws {
        let plain = try Self.members().decoded
        let fields: HTTPFields = [.contentType: "application/x-gzip"]
        let response = try await Streamed.send(
            Streamed.response(Streamed.chunks(plain, every: 10_000), fields: fields),
            options: .default.decodingGzipDownloads())
        #expect(response.fields["Content-Type"] == "application/x-gzip")
        #expect(await Streamed.read(response.body).data == plain)
    }
}

/// Over `URLSessionTransport`, which streams every body with a `Content-Encoding` and inflates it
/// itself: a large body arrives decoded exactly once, as a stream.
@Suite(.serialized) struct GzipStreamingURLSessionTests {
    let server = LoopbackServer()

    init() throws {
        try server.start()
    }

    @Test func aLargeGzipBodyOverURLSessionStreamsUpDecodedExactlyOnce() async throws {
        defer { server.stop() }
        // Bytes that barely compress, so the compressed body is past the 256 KiB read whole.
        var rng = SeededRandomNumberGenerator(seed: 16)
        let plain = Data((0..<(1 << 20)).map { _ in UInt8(ascii: "a") + UInt8(rng.next() % 26) })
        let wire = try Deflater.compress(plain, format: .gzip)
        #expect(wire.count > 256 << 10)
        server.route("GET", "/large", .init(headers: [("Content-Encoding", "gzip")], body: wire))
        let pipeline = Pipeline(transport: URLSessionTransport()) { GzipMiddleware() }
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("large")))
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.body.bufferedData == nil)
        let read = await Streamed.read(response.body)
        #expect(read.error == nil)
        #expect(read.data == plain)
    }
}
