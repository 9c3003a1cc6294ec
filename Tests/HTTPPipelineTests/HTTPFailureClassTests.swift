import Foundation
import HTTPPipeline
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct HTTPFailureClassTests {
    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, HTTPFailureClass.notSent), (.cannotFindHost, .notSent),
        (.dnsLookupFailed, .notSent), (.notConnectedToInternet, .notSent), (.networkConnectionLost, .transient),
        (.timedOut, .transient), (.badServerResponse, .transient), (.secureConnectionFailed, .permanent),
        (.cancelled, .permanent), (.badURL, .permanent),
    ])
    func aURLErrorReadsAsItsCodeSays(code: URLError.Code, expected: HTTPFailureClass) {
        #expect(HTTPFailureClass(URLError(code)) == expected)
    }

    @Test func aTransportsOwnErrorReadsThroughHTTPTransientFailure() {
        struct Refused: Error, HTTPTransientFailure {
            var isTransient: Bool { true }
            var mayHaveReachedServer: Bool { false }
        }
        struct Reset: Error, HTTPTransientFailure {
            var isTransient: Bool { true }
        }
        struct Broken: Error, HTTPTransientFailure {
            var isTransient: Bool { false }
        }
        #expect(HTTPFailureClass(Refused()) == .notSent)
        #expect(HTTPFailureClass(Reset()) == .transient, "a failure may have reached the server unless it says not")
        #expect(HTTPFailureClass(Broken()) == .permanent)
        #expect(HTTPFailureClass(CancellationError()) == .permanent)
    }

    @Test func anUnknownOutcomeReadsAsTransientAndSaysTheServerMayHaveProcessedTheRequest() {
        let error = HTTPTransportError.outcomeUnknown
        #expect(error.isOutcomeUnknown && !error.isInvalidRequest)
        #expect(HTTPFailureClass(error) == .transient)
        #expect(error.description.contains("may have processed it"))
        #expect(!HTTPTransportError.nonHTTPResponse.isTransient)
    }

    @Test func onlyAnIdempotentOrKeyedRequestWithAReplayableBodyMayBeResentByATransport() {
        let url = URL(fileURLWithPath: "/")
        #expect(HTTPRequest(method: .get, url: url).mayBeResentByTransport)
        #expect(HTTPRequest(method: .put, url: url, body: HTTPBody(Data("x".utf8))).mayBeResentByTransport)
        #expect(!HTTPRequest(method: .post, url: url, body: HTTPBody(Data("x".utf8))).mayBeResentByTransport)
        #expect(!HTTPRequest(method: .patch, url: url).mayBeResentByTransport)
        var keyed = HTTPRequest(method: .post, url: url, body: HTTPBody(Data("x".utf8)))
        keyed.fields["Idempotency-Key"] = "order-1"
        #expect(keyed.mayBeResentByTransport)
        let stream = AsyncStream<Data> { $0.finish() }
        keyed.body = HTTPBody(stream: stream)
        #expect(!keyed.mayBeResentByTransport, "a single-pass body is sent once whatever the key says")
    }
}
