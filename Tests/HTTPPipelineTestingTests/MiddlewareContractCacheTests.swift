import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// A response cache answers a repeated GET from memory without calling `next`: the contract must
/// let a legitimate one pass and still catch a broken one.
@Suite struct MiddlewareContractCacheTests {
    /// Keeps the body and head of each successful GET, by URL, and answers the same GET again
    /// from memory.
    struct ResponseCache: HTTPMiddleware {
        let entries = Locked<[URL: HTTPResponse]>([:])

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            guard request.method == .get else { return try await next(request) }
            let url = request.url
            if let hit = entries.withLock({ $0[url] }) { return hit }
            let response = try await next(request)
            guard (200..<300).contains(response.status.code) else { return response }
            // Kept buffered, so that every hit can read the body again.
            let kept = HTTPResponse(head: response.head, body: HTTPBody(try await response.body.collect(upTo: 1 << 20)))
            entries.withLock { $0[url] = kept }
            return kept
        }
    }

    /// A cache that keeps the head but loses the body: its hits are empty.
    struct ForgetsTheBody: HTTPMiddleware {
        let entries = Locked<[URL: HTTPResponseHead]>([:])

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            let url = request.url
            if let hit = entries.withLock({ $0[url] }) { return HTTPResponse(head: hit) }
            let response = try await next(request)
            entries.withLock { $0[url] = response.head }
            return response
        }
    }

    /// A cache keyed by host alone: it answers a request for one path with another's response.
    struct KeyedByHost: HTTPMiddleware {
        let entries = Locked<[String: HTTPResponse]>([:])

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            let host = request.url.host ?? ""
            if let hit = entries.withLock({ $0[host] }) { return hit }
            let response = try await next(request)
            let kept = HTTPResponse(head: response.head, body: HTTPBody(try await response.body.collect(upTo: 1 << 20)))
            entries.withLock { $0[host] = kept }
            return kept
        }
    }

    /// Answers every request itself, the first one included.
    struct NeverCallsNext: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            HTTPResponse(status: 200)
        }
    }

    let cacheContract = MiddlewareContract(mayAnswerWithoutCallingNext: true)

    @Test("A response cache that answers a repeated GET from memory keeps the contract")
    func responseCacheKeepsTheContract() async {
        let report = await cacheContract.check { ResponseCache() }
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.checked == MiddlewareContract.Rule.allCases)
    }

    @Test("A cache that does not declare it may answer without calling next is told to declare it")
    func undeclaredCacheBreaksCallsNextAndSaysWhatToDeclare() async {
        let report = await MiddlewareContract().check { ResponseCache() }
        #expect(report.violations.map(\.rule) == [.callsNext])
        #expect(
            report.description
                == "callsNext: a repeated request was answered without calling next "
                + "(declare mayAnswerWithoutCallingNext if answering from memory is the middleware's job)"
        )
    }

    @Test("One cache value shared by every check fails, so a cache is checked through a closure that makes it")
    func oneSharedCacheValueCarriesItsHitsIntoTheLaterChecks() async {
        let report = await cacheContract.check(ResponseCache())
        #expect(Set(report.violations.map(\.rule)) == [.callsNext, .ordering, .errorPropagation, .cancellation])
    }

    @Test("A cache whose hits lose the body breaks callsNext")
    func cacheWhoseHitsLoseTheBodyBreaksCallsNext() async {
        let report = await cacheContract.check { ForgetsTheBody() }
        #expect(report.description == "callsNext: a repeated request was answered without next, with another body")
    }

    @Test("A cache that answers one URL with another's response breaks callsNext")
    func cacheKeyedByHostBreaksCallsNext() async {
        let report = await cacheContract.check { KeyedByHost() }
        #expect(report.description == "callsNext: a request for another URL was answered without calling next")
    }

    @Test("Answering the first request without calling next breaks the contract even for a cache")
    func answeringEveryRequestItselfBreaksTheContractEvenForACache() async {
        let report = await cacheContract.check { NeverCallsNext() }
        let rules = Set(report.violations.map(\.rule))
        #expect(rules.isSuperset(of: [.passThrough, .callsNext, .ordering]))
        #expect(report.description.contains("callsNext: next was called 0 times on a successful exchange"))
    }
}
