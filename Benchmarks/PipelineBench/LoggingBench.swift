import Foundation
import HTTPPipeline
import HTTPPipelineLogging

/// A sink that formats every record, as a real sink would, and keeps only a byte count.
struct FormattingSink: HTTPLogSink {
    let bytes = Locked(0)

    func write(_ record: HTTPLogRecord) {
        let count = record.formatted.utf8.count
        bytes.withLock { $0 &+= count }
    }
}

/// The logging measurement: the same exchange through a pipeline without logging, and with
/// logging at basic and at headers level (redaction included), side by side.
enum LoggingBench {
    static let levels: [LogLevel] = [.none, .basic, .headers]

    static func request() -> HTTPRequest {
        let url =
            URL(string: "https://api.example.com/v1/books/42?access_token=abc123&page=2&lang=en")
            ?? URL(fileURLWithPath: "/")
        var request = HTTPRequest(url: url)
        request.fields["Authorization"] = "Bearer eyJhbGciOiJIUzI1NiJ9.e30.signature"
        request.fields["Accept"] = "application/json"
        request.fields["User-Agent"] = "Shelf/2.3 (Linux) swift-http-pipeline/0.1"
        request.fields["X-Request-ID"] = "7f7a3c1e-5d1b-4f3e-9a57-1c2d3e4f5a6b"
        return request
    }

    static func transport() -> InMemoryTransport {
        let fields: HTTPFields = [
            .cacheControl: "max-age=60",
            .contentType: "application/json; charset=utf-8",
            .eTag: "\"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
            .setCookie: "session=abcdef0123456789; Path=/; HttpOnly",
        ]
        return InMemoryTransport(
            response: HTTPResponse(status: 200, fields: fields, body: HTTPBody(Data(#"{"id":42,"title":"Dune"}"#.utf8)))
        )
    }

    static func chains() -> [(key: String, transport: any HTTPTransport)] {
        let transport = transport()
        return levels.map { level in
            let pipeline = Pipeline(transport: transport) {
                NoOp()
                LoggingMiddleware(level: level, sink: FormattingSink())
            }
            return ("logging_\(level)", pipeline)
        }
    }
}
