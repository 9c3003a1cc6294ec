import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import HTTPPipelineLogging

@Suite struct CleanURLMemoTests {
    func send(_ urls: [String], through logging: LoggingMiddleware) async throws {
        let pipeline = Pipeline(transport: BodyIgnoringTransport()) { logging }
        for text in urls {
            let url = try #require(URL(string: text))
            _ = try await pipeline.send(HTTPRequest(url: url))
        }
    }

    @Test func aURLWithASecretIsRedactedEveryTimeAndNeverRemembered() async throws {
        let sink = InMemoryLogSink()
        let logging = LoggingMiddleware(level: .basic, sink: sink)
        let secret = "https://api.example.invalid/books?access_token=tok-SECRET-1"
        try await send([secret, secret, secret], through: logging)
        #expect(sink.records.count == 3)
        #expect(sink.records.allSatisfy { !$0.url.contains("tok-SECRET-1") })
        #expect(Set(sink.records.map(\.url)).count == 1)
        #expect(!logging.cleanURLs.contains(secret))
        #expect(logging.cleanURLs.count == 0)
    }

    @Test func aCleanURLIsRememberedAndLoggedTheSameEveryTime() async throws {
        let sink = InMemoryLogSink()
        let logging = LoggingMiddleware(level: .basic, sink: sink)
        let clean = "https://api.example.invalid/books/1?page=2"
        try await send([clean, clean], through: logging)
        #expect(sink.records.map(\.url) == [clean, clean])
        #expect(logging.cleanURLs.contains(clean))
    }

    @Test func aSecretURLBetweenCallsToACleanOneIsRedactedWhileTheCleanOneIsStillKnown() async throws {
        let sink = InMemoryLogSink()
        let logging = LoggingMiddleware(level: .basic, sink: sink)
        let clean = "https://api.example.invalid/books/1"
        let other = "https://api.example.invalid/books/2"
        let secret = "https://api.example.invalid/books/1?access_token=tok-SECRET-2"
        try await send([clean, secret, other, clean, secret], through: logging)
        #expect(sink.records.map(\.url)[0] == clean)
        #expect(sink.records.map(\.url)[2] == other)
        #expect(sink.records.map(\.url)[3] == clean)
        #expect(sink.records.allSatisfy { !$0.url.contains("tok-SECRET-2") })
        #expect(logging.cleanURLs.contains(clean))
        #expect(logging.cleanURLs.contains(other))
        #expect(!logging.cleanURLs.contains(secret))
        #expect(logging.cleanURLs.count == 2)
    }

    @Test func aURLCutToTheLimitIsNeverRemembered() async throws {
        let sink = InMemoryLogSink()
        let logging = LoggingMiddleware(level: .basic, sink: sink, urlLimit: 20)
        let long = "https://api.example.invalid/books/1/chapters/2"
        try await send([long, long], through: logging)
        #expect(sink.records.allSatisfy { $0.url.hasPrefix("https://api.example.") && $0.url != long })
        #expect(logging.cleanURLs.count == 0)
    }

    @Test func theMemoStartsAgainWhenFullSoDistinctURLsNeverGrowIt() async throws {
        let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
        let urls = (0..<(CleanURLMemo.capacity + 44)).map { "https://api.example.invalid/books/\($0)" }
        try await send(urls, through: logging)
        #expect(logging.cleanURLs.count <= CleanURLMemo.capacity)
        #expect(logging.cleanURLs.count == 44)
    }
}
