import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import TestSupport
import Testing

/// Fixtures, encoders and a one-call pipeline for the gzip tests.
enum Support {
    static let url = URL(string: "http://gzip.invalid/books") ?? URL(fileURLWithPath: "/")

    /// A committed fixture from `Fixtures/`, made by `Scripts/make-gzip-fixtures.py`.
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
            "missing fixture \(name)"
        )
        return try Data(contentsOf: url)
    }

    /// The plain JSON most fixtures decode to.
    static func sample() throws -> Data { try fixture("sample.json") }

    static func request(headers: [String: String] = [:], body: Data? = nil) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.fields[name] = value }
        if let body {
            request.method = .post
            request.body = HTTPBody(body)
        }
        return request
    }

    /// Sends one request through `GzipMiddleware(options)` over a transport answering with
    /// `body` and `headers`; returns the body bytes and the head the caller gets back.
    static func send(
        _ body: Data,
        headers: [String: String],
        options: GzipOptions = .default,
        request: HTTPRequest = request()
    ) async throws -> (Data, HTTPResponseHead) {
        let transport = ScriptedTransport([.status(200, headers: headers, body: body)])
        let response = try await Pipeline(transport: transport) { GzipMiddleware(options) }.send(request)
        return (try await response.bytes(), response.head)
    }

    /// Runs `send` and returns its ``GzipError``, or `nil` if it succeeded or threw something else.
    static func gzipError(
        _ body: Data,
        headers: [String: String],
        options: GzipOptions = .default
    ) async -> GzipError? {
        do {
            _ = try await send(body, headers: headers, options: options)
            return nil
        } catch {
            return error as? GzipError
        }
    }

    /// About `approximateSize` bytes of API-like JSON, the same for the same seed.
    static func generatedJSON(approximateSize: Int, seed: UInt64 = 1) -> Data {
        var rng = SeededRandomNumberGenerator(seed: seed)
        var text = #"{"items":["#
        var index = 0
        while text.utf8.count < approximateSize {
            if index > 0 { text += "," }
            let price = rng.next() % 10_000
            text += #"{"id":\#(index),"sku":"SKU-\#(rng.next() % 100_000)","name":"Item \#(index)","#
            text +=
                #""price":\#(price / 100).\#(price % 100),"inStock":\#(rng.next() % 2 == 0),"tags":["a","b\#(index % 13)"]}"#
            index += 1
        }
        return Data((text + "]}").utf8)
    }

    /// A small JSON body that compresses, in `format` at zlib's default level, to exactly as
    /// many bytes as it has: what a transport that inflates bodies hands up with a
    /// `Content-Length` equal to the body's size (about 2 % of small error bodies like these for gzip,
    /// 4 % for zlib). The same body every time.
    static func bodyCompressingToItsOwnSize(_ format: Deflater.Format) throws -> Data {
        let words = ["not", "found", "the", "resource", "was", "invalid", "token", "expired"]
        var rng = SeededRandomNumberGenerator(seed: 7)
        for index in 0..<2_000 {
            let message = (0...(rng.next() % 12)).map { _ in words[Int(rng.next() % 8)] }.joined(separator: " ")
            let body = Data(#"{"error":{"code":\#(400 + index % 100),"message":"\#(message)"}}"#.utf8)
            if try Deflater.compress(body, format: format).count == body.count { return body }
        }
        throw BodyNotFound()
    }

    struct BodyNotFound: Error {}

    /// The path of an executable on `PATH`, or `nil`.
    static func tool(_ name: String) -> String? {
        CommandLineTool.path(name)
    }

    /// Runs an encoder on `data` (written to a temporary file) and returns what it writes to
    /// standard output.
    static func encode(_ data: Data, with tool: String, arguments: [String]) throws -> Data {
        let input = FileManager.default.temporaryDirectory
            .appending(path: "gzip-test-\(UUID().uuidString).json")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments + [input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let encoded = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) failed")
        return encoded
    }
}

/// A middleware that records the body size and `Content-Encoding` it sees coming back.
struct BodyRecorder: HTTPMiddleware {
    let name: String
    let seen = Locked<[(bytes: Int, encoding: String?)]>([])

    init(_ name: String) {
        self.name = name
    }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let response = try await next(request)
        let data = try await response.bytes()
        seen.withLock { $0.append((data.count, response.fields["Content-Encoding"])) }
        // A streamed body was read here: the layer above gets the same bytes, buffered.
        guard response.body.bufferedData == nil else { return response }
        return HTTPResponse(head: response.head, body: HTTPBody(data))
    }
}

extension HTTPResponse {
    /// The whole body: a buffered one at once, a streamed one read to its end.
    func bytes() async throws -> Data {
        if let data = body.bufferedData { return data }
        return try await body.collect(upTo: Int.max)
    }
}
