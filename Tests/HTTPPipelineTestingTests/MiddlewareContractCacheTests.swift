import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response cache answers a repeated GET from memory without calling `next`: the contract must
/// let a legitimate one pass and still catch a broken one.
@Suite struct MiddlewareContractCacheTests {
    /// Keeps the body and head of each successful GET, by URL, and answers the same GET again
    /// from memory.
    struct ResponseCache: HTTPMiddleware {
        let entries = Locked<[URL: (Data, HTTPURLResponse)]>([:])

        func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
            guard request.httpMethod ?? "GET" == "GET", let url = request.url else { return try await next(request) }
            if let hit = entries.withLock({ $0[url] }) { return hit }
            let (data, response) = try await next(request)
            if (200..<300).contains(response.statusCode) {
                entries.withLock { $0[url] = (data, response) }
            }
            return (data, response)
        }
    }

    /// A cache that keeps the head but loses the body: its hits are empty.
    struct ForgetsTheBody: HTTPMiddleware {
        let entries = Locked<[URL: HTTPURLResponse]>([:])

        func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
            guard let url = request.url else { return try await next(request) }
            if let hit = entries.withLock({ $0[url] }) { return (Data(), hit) }
            let (data, response) = try await next(request)
            entries.withLock { $0[url] = response }
            return (data, response)
        }
    }

    /// A cache keyed by host alone: it answers a request for one path with another's response.
    struct KeyedByHost: HTTPMiddleware {
        let entries = Locked<[String: (Data, HTTPURLResponse)]>([:])

        func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
            let host = request.url?.host ?? ""
            if let hit = entries.withLock({ $0[host] }) { return hit }
            let (data, response) = try await next(request)
            entries.withLock { $0[host] = (data, response) }
            return (data, response)
        }
    }

    /// Answers every request itself, the first one included.
    struct NeverCallsNext: HTTPMiddleware {
        func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
            let response = HTTPURLResponse(
                url: request.url ?? URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: nil, headerFields: nil)
            guard let response else { throw HTTPTransportError.nonHTTPResponse }
            return (Data(), response)
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
