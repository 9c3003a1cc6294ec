import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The head handed up after decoding: the response's own, less the coding.
@Suite struct GzipResponseHeadTests {
    static let fields = [
        "content-encoding": "gzip", "CONTENT-LENGTH": "491", "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": #"attachment; filename="books.json""#, "ETag": #""6f2a""#,
        "Cache-Control": "max-age=60", "x-request-id": "abc-123", "Vary": "Accept-Encoding",
    ]

    @Test("A decoded response keeps its status and every field but the coding, whatever the case of their names")
    func aDecodedResponseKeepsEverythingButTheCoding() async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let sample = try Support.sample()
        let url = try #require(URL(string: "https://api.example.com/v1/books?page=2"))
        let transport = ScriptedTransport([.status(203, headers: Self.fields, body: body)])
        let response = try await Pipeline(transport: transport) { GzipMiddleware() }.send(HTTPRequest(url: url))
        #expect(try await response.bytes() == sample)
        #expect(response.status == 203)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(sample.count))
        #expect(response.fields[values: .contentLength] == [String(sample.count)])
        for (name, value) in Self.fields where !["content-encoding", "content-length"].contains(name.lowercased()) {
            #expect(response.fields[name] == value, "\(name)")
            #expect(response.fields[name.uppercased()] == value, "\(name) in upper case")
        }
        #expect(response.fields.count == Self.fields.count - 1)
        // What Foundation derives from the head (MIME type, text encoding, file name) is still
        // there for a caller who converts it.
        let foundation = try #require(
            HTTPURLResponse(
                url: url, statusCode: response.status.code, httpVersion: nil,
                headerFields: Dictionary(response.fields.map { ($0.name.rawName, $0.value) }) { first, _ in first }))
        #expect(foundation.expectedContentLength == Int64(sample.count))
        #expect(foundation.mimeType == "application/json")
        #expect(foundation.textEncodingName == "utf-8")
        #expect(foundation.suggestedFilename == "books.json")
    }

    @Test("A response already inflated below keeps every field but the coding, with the length of what it carries")
    func anAlreadyInflatedResponseKeepsEverythingButTheCoding() async throws {
        let sample = try Support.sample()
        var head = HTTPResponseHead(status: 200, decodedByTransport: true)
        for (name, value) in Self.fields { head.fields[name] = value }
        let decoded = head
        let response = try await GzipMiddleware().intercept(Support.request()) { _ in
            HTTPResponse(head: decoded, body: HTTPBody(sample))
        }
        #expect(try await response.bytes() == sample)
        #expect(!response.head.decodedByTransport)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(sample.count))
        #expect(response.fields["X-Request-ID"] == "abc-123")
        #expect(response.fields.count == Self.fields.count - 1)
    }

    #if canImport(FoundationNetworking)
    @Test("FoundationNetworking stores no HTTP version in a response, so a rebuilt head has none to lose")
    func foundationNetworkingKeepsNoHTTPVersion() throws {
        // Neither Foundation offers a public accessor for the version; FoundationNetworking does
        // not even keep it. Should a later one store it, this fails and the rebuild must copy it.
        let url = try #require(URL(string: "https://example.com/"))
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/2", headerFields: ["A": "1"]))
        var stored: [String] = []
        var mirror: Mirror? = Mirror(reflecting: response)
        while let current = mirror {
            stored += current.children.map { "\($0.label ?? "?")=\($0.value)" }
            mirror = current.superclassMirror
        }
        #expect(!stored.isEmpty)
        #expect(!stored.contains { $0.contains("HTTP/2") || $0.lowercased().contains("version") }, "\(stored)")
    }
    #endif
}

/// A decoded response keeps what the layers below told in its context.
@Suite struct GzipResponseContextTests {
    enum Told: HTTPContextKey {
        typealias Value = String
    }

    /// A gzip body, buffered or streamed, with a value in the response's context.
    struct TellingTransport: HTTPTransport {
        let streamed: Bool

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let compressed = try Deflater.compress(Data("hello".utf8), format: .gzip)
            let body =
                streamed
                ? HTTPBody(
                    stream: AsyncStream<Data> { continuation in
                        continuation.yield(compressed)
                        continuation.finish()
                    }) : HTTPBody(compressed)
            var response = HTTPResponse(status: 200, fields: [.contentEncoding: "gzip"], body: body)
            response.context[Told.self] = "below"
            return response
        }
    }

    @Test(arguments: [false, true])
    func aDecodedResponseKeepsTheContextOfTheResponseItDecoded(streamed: Bool) async throws {
        let pipeline = Pipeline(transport: TellingTransport(streamed: streamed)) { GzipMiddleware() }

        let response = try await pipeline.send(
            HTTPRequest(url: URL(string: "https://example.com/") ?? URL(fileURLWithPath: "/")))

        #expect(try await response.body.collect(upTo: 1 << 10) == Data("hello".utf8))
        #expect(response.context[Told.self] == "below")
    }
}
