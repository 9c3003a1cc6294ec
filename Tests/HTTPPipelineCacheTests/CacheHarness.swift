import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineCurl
import HTTPPipelineTesting

/// A wall clock a test moves by hand: the cache's `now`, and the server's `Date`.
final class TestClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.value }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// `now` as an IMF-fixdate.
    func httpDate(offset: TimeInterval = 0) -> String {
        TestClock.format(now.addingTimeInterval(offset))
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// A cache over a real transport to a loopback origin whose answers a test scripts: the origin
/// counts what reaches it, so a test tells a hit from a round trip.
final class CacheHarness: Sendable {
    let server = LoopbackServer()
    let clock = TestClock()
    let transport = CurlTransport()
    let cache: CacheMiddleware
    let pipeline: any HTTPTransport

    init(options: CacheOptions = CacheOptions()) throws {
        cache = CacheMiddleware(options: options, now: { [clock] in clock.now })
        pipeline = Pipeline(transport: transport) { [cache] in cache }
        try server.start()
    }

    deinit { server.stop() }

    func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

    /// Answers `GET path` with `respond`, given the request and the number of its arrival (1, 2, …).
    func route(
        _ path: String, method: String = "GET",
        _ respond: @escaping @Sendable (LoopbackServer.RecordedRequest, Int) -> LoopbackServer.Response
    ) {
        let count = Locked(0)
        server.route(method, "/" + path) { request in
            let number = count.withLock { count in
                count += 1
                return count
            }
            return respond(request, number)
        }
    }

    /// Requests that reached the origin for `path`.
    func arrivals(_ path: String, method: String = "GET") -> [LoopbackServer.RecordedRequest] {
        server.requests.filter { $0.path == "/" + path && $0.method == method }
    }

    /// Sends a request and reads its body.
    func send(
        _ path: String, method: HTTPMethod = .get, fields: HTTPFields = HTTPFields(), policy: CachePolicy? = nil
    ) async throws -> (HTTPResponse, String) {
        var request = HTTPRequest(method: method, url: url(path), fields: fields)
        request.context.cachePolicy = policy
        let response = try await pipeline.send(request)
        let body = try await response.body.collect(upTo: 1 << 24)
        return (response, String(decoding: body, as: UTF8.self))
    }

    /// A 200 with `headers` (a `Date` of now added unless given) and `body`.
    func ok(_ body: String, _ headers: [(String, String)] = []) -> LoopbackServer.Response {
        var headers = headers
        if !headers.contains(where: { $0.0.lowercased() == "date" }) { headers.append(("Date", clock.httpDate())) }
        return .init(status: 200, headers: headers, body: Data(body.utf8))
    }

    /// A response of `status` with `headers` and no body (a `Date` of now added unless given).
    func status(_ status: Int, _ headers: [(String, String)] = []) -> LoopbackServer.Response {
        var headers = headers
        if !headers.contains(where: { $0.0.lowercased() == "date" }) { headers.append(("Date", clock.httpDate())) }
        return .init(status: status, headers: headers, body: Data())
    }
}

extension HTTPResponse {
    var outcome: CacheOutcome? { CacheOutcome(head) }
}
