import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// The gzip plugin's verdict on bytes that are not what their label says depends on the bytes
/// alone: buffered or streamed, with or without a `Content-Length`, over every transport.
@Suite struct GzipVerdictTests {
    /// Bodies that are not what their `Content-Encoding` says.
    enum Sample: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case badMagic, presetDictionary, invalidRawDeflate, truncatedStream, badTrailer

        var testDescription: String { rawValue }

        static let text = Data(String(repeating: #"{"id":7,"title":"Book 7","author":"Author 0"},"#, count: 60).utf8)

        /// A zlib stream that needs a preset dictionary (FDICT set), made by Python's zlib.
        static let presetDictionaryStream =
            Data(
                base64Encoded:
                    "eLvYjwt/hdY7agNBFETRrQyKFej99FmL8UqM925jy7gedUHRJF3J5dDTbx8/n+NyPk7P48fv+cvp/L85/kaX0+f5eG7CNoGbkE3aJnGTsinbFG5KNm2bxk3LZmwzuBnZXG1zxc1VNjfb3F62vtvm/rL1wzaPl63DIQRL0NoBFNiC9g7HEKxBi4dzCPagzcNBBItYwp1EsAntHo4iWMUq7yyCXazyDiNYxirvNIJtaPl0G8k2tHy6jWQbWj7homAb63ZxG8k2tHy6jWQbWj7dRrINLZ9uI9nGKu82km2s8m4j2cYq7zaSbWj5chvFNtbN7jaKbWj5chvFNrR8wW+EbWj5chvFNrR8uY1iG1q+3EaxjVXebRTbWOXdRrGNVd5tFNvQ8u02mm1o+XYbzTa0fLuNZhtavt1Gsw0t3/DIYBtavt1Gs431nnEbzTZWebfRbGOVdxvNNlZ5t9FsQ8uP2xi2oeXHbQzb0PLjNoZtaPlxG8M21lvSbQzb0PIDT1C2oeXHbQzbWOXdxrCNVd5tDNtY5d3GsI3v8u9fX8WAmA=="
            ) ?? Data()

        var coding: String {
            switch self {
            case .badMagic, .truncatedStream, .badTrailer: "gzip"
            case .presetDictionary, .invalidRawDeflate: "deflate"
            }
        }

        func bytes() throws -> Data {
            switch self {
            case .badMagic: return Data("plain text, not gzip".utf8)
            case .presetDictionary: return Self.presetDictionaryStream
            case .invalidRawDeflate: return Data([0x07, 0x00, 0x11, 0x22, 0x33])
            case .truncatedStream:
                let whole = try Deflater.compress(Self.text, format: .gzip)
                return whole.prefix(whole.count / 2)
            case .badTrailer:
                var whole = try Deflater.compress(Self.text, format: .gzip)
                whole[whole.count - 8] ^= 0xFF
                return whole
            }
        }
    }

    enum Path: String, CaseIterable, Sendable {
        case scriptedBuffered, scriptedStreamed, curlLength, curlChunked, urlSessionLength, urlSessionChunked
    }

    static func outcome(_ sample: Sample, _ path: Path, server: LoopbackServer) async -> String {
        let body: Data
        do { body = try sample.bytes() } catch { return "fixture \(error)" }
        let request = HTTPRequest(url: server.baseURL.appending(path: "\(sample.rawValue)-\(path.rawValue)"))
        let transport: any HTTPTransport
        switch path {
        case .scriptedBuffered, .scriptedStreamed:
            let streamed = path == .scriptedStreamed
            transport = ScriptedTransport { _ in
                streamed
                    ? .streamed(headers: ["Content-Encoding": sample.coding], chunks: [body])
                    : .status(
                        200, headers: ["Content-Encoding": sample.coding, "Content-Length": String(body.count)],
                        body: body)
            }
        case .curlLength, .curlChunked: transport = CurlTransport(configuration: .default)
        case .urlSessionLength, .urlSessionChunked: transport = URLSessionTransport()
        }
        do {
            let response = try await Self.send(request, over: transport)
            let data = try await response.body.collect(upTo: 1 << 20)
            return "plain \(data.count) B"
        } catch is GzipError {
            return "GzipError"
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    static func send(_ request: HTTPRequest, over transport: some HTTPTransport) async throws -> HTTPResponse {
        try await Pipeline(transport: transport) { GzipMiddleware() }.send(request)
    }

    @Test(
        "A body that is not what its label says gets the same verdict however it is framed and whichever transport carried it",
        arguments: Sample.allCases)
    func theVerdictDependsOnTheBytesAlone(_ sample: Sample) async throws {
        let server = LoopbackServer()
        let body = try sample.bytes()
        for path in Path.allCases {
            let chunked = path == .curlChunked || path == .urlSessionChunked
            server.route(
                "GET", "/\(sample.rawValue)-\(path.rawValue)",
                .init(headers: [("Content-Encoding", sample.coding)], body: chunked ? .chunked([body]) : .bytes(body)))
        }
        try server.start()
        defer { server.stop() }
        var outcomes: [String: String] = [:]
        for path in Path.allCases {
            outcomes[path.rawValue] = await Self.outcome(sample, path, server: server)
        }
        if sample == .truncatedStream {
            // The one cell no layer above URLSession can keep: FoundationNetworking's decoder
            // (libcurl's) hands up a gzip stream that ends early inside a complete body as a
            // short success, and the wire bytes never reach the pipeline. Documented in the gzip
            // plugin's verdict table; every other transport and framing refuses it.
            for path in [Path.urlSessionLength, .urlSessionChunked] {
                #expect(outcomes.removeValue(forKey: path.rawValue)?.hasPrefix("plain") == true)
            }
        }
        #expect(Set(outcomes.values) == ["GzipError"], "\(sample): \(outcomes)")
    }
}
