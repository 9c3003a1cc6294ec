import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import Testing

/// Bytes made by encoders other than ours decode to what they encoded.
@Suite struct GzipInteropTests {
    /// A committed fixture and the `Content-Encoding` it is served with.
    struct Fixture: Sendable, CustomTestStringConvertible {
        let file: String
        let coding: String
        var testDescription: String { "\(file) as \(coding)" }
    }

    static let fixtures: [Fixture] = [
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
    ]

    @Test(arguments: fixtures)
    func fixtureFromAnotherEncoderDecodesToTheOriginalWithAPlainHead(_ fixture: Fixture) async throws {
        let body = try Support.fixture(fixture.file)
        let headers = ["Content-Encoding": fixture.coding, "Content-Length": String(body.count)]
        let (data, response) = try await Support.send(body, headers: headers)
        #expect(data == (try Support.sample()))
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(data.count))
    }

    @Test func multiMemberGzipFromConcatenatedFilesDecodesToBothMembers() async throws {
        let body = try Support.fixture("multi-member.gz")
        let (data, _) = try await Support.send(body, headers: ["Content-Encoding": "gzip"])
        #expect(data == (try Support.sample()) + (try Support.fixture("second.txt")))
    }

    @Test func gnuGzipFixtureReallyCarriesAFileNameInItsHeader() throws {
        let body = try Support.fixture("gnu-gzip-name.json.gz")
        #expect(body[body.startIndex + 3] & 0x08 != 0, "FNAME flag")
        #expect(body.range(of: Data("sample.json\u{0}".utf8)) != nil)
    }

    // Larger inputs, encoded at test time by the tools Scripts/bootstrap.sh installs.

    @Test(.enabled(if: Support.tool("gzip") != nil, "GNU gzip is not on PATH"))
    func largeBodyFromGnuGzipDecodes() async throws {
        try await roundTrip(tool: "gzip", arguments: ["-c", "-6"], size: 2 << 20, coding: "gzip")
    }

    @Test(.enabled(if: Support.tool("pigz") != nil, "pigz is not on PATH"))
    func largeBodyFromPigzInParallelBlocksDecodes() async throws {
        try await roundTrip(tool: "pigz", arguments: ["-c", "-p", "2", "-b", "128"], size: 2 << 20, coding: "gzip")
    }

    @Test(.enabled(if: Support.tool("pigz") != nil, "pigz is not on PATH"))
    func largeZlibBodyFromPigzDecodesAsDeflate() async throws {
        try await roundTrip(tool: "pigz", arguments: ["-c", "-z"], size: 2 << 20, coding: "deflate")
    }

    @Test(.enabled(if: Support.tool("zopfli") != nil, "zopfli is not on PATH"))
    func largerBodyFromZopfliDecodes() async throws {
        try await roundTrip(tool: "zopfli", arguments: ["-c", "--i1"], size: 128 << 10, coding: "gzip")
    }

    @Test(.enabled(if: Support.tool("gzip") != nil, "GNU gzip is not on PATH"))
    func manyConcatenatedGnuGzipMembersDecodeInOrder() async throws {
        var body = Data()
        var expected = Data()
        for seed in 1...20 as ClosedRange<UInt64> {
            let part = Support.generatedJSON(approximateSize: 20_000, seed: seed)
            expected += part
            body += try Support.encode(part, with: try #require(Support.tool("gzip")), arguments: ["-c"])
        }
        let (data, _) = try await Support.send(body, headers: ["Content-Encoding": "gzip"])
        #expect(data == expected)
    }

    private func roundTrip(tool name: String, arguments: [String], size: Int, coding: String) async throws {
        let plain = Support.generatedJSON(approximateSize: size)
        let encoded = try Support.encode(plain, with: try #require(Support.tool(name)), arguments: arguments)
        let (data, response) = try await Support.send(encoded, headers: ["Content-Encoding": coding])
        #expect(data == plain)
        #expect(response.fields["Content-Encoding"] == nil)
    }
}
