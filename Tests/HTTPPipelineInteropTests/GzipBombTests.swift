import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// A decompression bomb stops at the gzip plugin's limit over every transport: over
/// `CurlTransport` the plugin inflates it, over `URLSessionTransport` the URL loading system
/// does and the plugin counts what it hands up.
@Suite struct GzipBombTests {
    /// 1 GiB of zeros, gzip-compressed on the fly (about 4.6 MB), made once.
    static let bomb: Data = {
        var out = Data()
        guard var deflater = try? Deflater(format: .gzip, level: 1) else { return out }
        let zeros = Data(count: 1 << 20)
        for index in 0..<1024 {
            try? deflater.compress(zeros, flush: index == 1023 ? .finish : .none, into: &out)
        }
        return out
    }()

    static func send(_ request: HTTPRequest, over transport: some HTTPTransport) async throws -> Int {
        let response = try await Pipeline(transport: transport) { GzipMiddleware() }.send(request)
        var received = 0
        for try await chunk in response.body { received += chunk.count }
        return received
    }

    @Test(
        "A 1 GiB gzip bomb stops at the default 64 MiB limit over both transports, buffered or chunked, in bounded time",
        arguments: [("curl", false), ("curl", true), ("urlSession", true)])
    func aGigabyteBombStopsAtTheLimit(over transport: String, chunked: Bool) async throws {
        // Not yet ("urlSession", false): under a Content-Length the URL loading system's read
        // stops at the limit only after about 230 s on this machine (open on issue 36).
        let bomb = Self.bomb
        #expect(bomb.count > 1 << 20 && bomb.count < 16 << 20)
        let server = LoopbackServer()
        server.route(
            "GET", "/bomb",
            .init(headers: [("Content-Encoding", "gzip")], body: chunked ? .chunked([bomb]) : .bytes(bomb)))
        try server.start()
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL.appending(path: "bomb"))
        let started = ContinuousClock.now
        // Curl's bytes are inflated here, where the ratio to the bytes received so far (100
        // times) may stop a bomb before the 64 MiB cap; URLSession's are counted as decoded.
        let error = await #expect(throws: GzipError.self) {
            _ =
                transport == "curl"
                ? try await Self.send(request, over: CurlTransport(configuration: .default))
                : try await Self.send(request, over: URLSessionTransport())
        }
        #expect(error?.limit != nil, "stopped by a limit: \(String(describing: error))")
        // Seconds alone; the bound is for a sanitized run on two busy cores (31 s seen).
        #expect(ContinuousClock.now - started < .seconds(120), "stopped in bounded time")
    }
}
