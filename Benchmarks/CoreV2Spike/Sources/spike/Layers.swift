import Foundation
import SpikeCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Sinks the optimiser cannot see through (same cost in every variant).
// SPIKE_VERIFY=1 prints what each sink receives, to check that every variant does the same work.
let verify = getenv("SPIKE_VERIFY") != nil
@inline(never) @_optimize(none) func hand(_ r: URLRequest) {
    if verify {
        print(
            "wire request:", r.httpMethod ?? "-", r.url?.absoluteString ?? "-",
            (r.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key })
    }
}
@inline(never) @_optimize(none) func keep(_ r: HTTPURLResponse) {
    if verify { print("response:", r.statusCode, r.allHeaderFields.map { "\($0.key): \($0.value)" }.sorted()) }
}
@inline(never) @_optimize(none) func keep(_ r: HTTPResponseHead) {
    if verify { print("response:", r.status, r.fields.map { "\($0.name): \($0.value)" }.sorted()) }
}
@inline(never) @_optimize(none) func keepInt(_ x: Int) {
    if verify { print("int:", x) }
}

// MARK: 1. URLRequest heads, by value (today)

struct URLSetHeader: URLMiddleware {
    let name: String, value: String
    func intercept(_ request: URLRequest, next: (URLRequest) async throws -> URLResult) async throws -> URLResult {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return try await next(request)
    }
}
struct URLPass: URLMiddleware {
    func intercept(_ request: URLRequest, next: (URLRequest) async throws -> URLResult) async throws -> URLResult {
        try await next(request)
    }
}
struct URLStrip: URLMiddleware {
    let name: String
    func intercept(_ request: URLRequest, next: (URLRequest) async throws -> URLResult) async throws -> URLResult {
        let (data, response) = try await next(request)
        return (data, rebuild(response, removing: name, fallbackURL: request.url))
    }
}
struct CannedURLTransport: URLTransport {
    let body: Data, response: HTTPURLResponse
    func send(_ request: URLRequest) async throws -> URLResult {
        hand(request)
        return (body, response)
    }
}

// MARK: 1b. URLRequest heads, consuming

struct URLSetHeaderC: URLMiddlewareConsuming {
    let name: String, value: String
    func intercept(_ request: consuming URLRequest, next: (consuming URLRequest) async throws -> URLResult) async throws
        -> URLResult
    {
        request.setValue(value, forHTTPHeaderField: name)
        return try await next(request)
    }
}
struct URLPassC: URLMiddlewareConsuming {
    func intercept(_ request: consuming URLRequest, next: (consuming URLRequest) async throws -> URLResult) async throws
        -> URLResult
    {
        try await next(request)
    }
}
struct URLStripC: URLMiddlewareConsuming {
    let name: String
    func intercept(_ request: consuming URLRequest, next: (consuming URLRequest) async throws -> URLResult) async throws
        -> URLResult
    {
        let url = request.url
        let (data, response) = try await next(request)
        return (data, rebuild(response, removing: name, fallbackURL: url))
    }
}

// MARK: 2. Light heads, by value

struct HeadSetHeader: HeadMiddleware {
    let name: String, value: String
    func intercept(_ request: HTTPRequestHead, next: (HTTPRequestHead) async throws -> LightResult) async throws
        -> LightResult
    {
        var request = request
        request.fields[name] = value
        return try await next(request)
    }
}
struct HeadPass: HeadMiddleware {
    func intercept(_ request: HTTPRequestHead, next: (HTTPRequestHead) async throws -> LightResult) async throws
        -> LightResult
    {
        try await next(request)
    }
}
struct HeadStrip: HeadMiddleware {
    let name: String
    func intercept(_ request: HTTPRequestHead, next: (HTTPRequestHead) async throws -> LightResult) async throws
        -> LightResult
    {
        var (data, head) = try await next(request)
        head.fields.removeAll(named: name)
        return (data, head)
    }
}
/// End to end: converts to URLRequest once on the way down, from HTTPURLResponse once on the way up.
struct ConvertingTransport: HeadTransport {
    let body: Data, response: HTTPURLResponse
    func send(_ request: HTTPRequestHead) async throws -> LightResult {
        hand(URLRequest(request))
        return (body, HTTPResponseHead(response))
    }
}
struct ConvertingTransportC: HeadTransportConsuming {
    let body: Data, response: HTTPURLResponse
    func send(_ request: consuming HTTPRequestHead) async throws -> LightResult {
        hand(URLRequest(request))
        return (body, HTTPResponseHead(response))
    }
}
/// Chain only: no conversion (an in-memory transport of light heads).
struct LightTransport: HeadTransport {
    let body: Data, head: HTTPResponseHead
    func send(_ request: HTTPRequestHead) async throws -> LightResult {
        keepInt(request.fields.count)
        return (body, head)
    }
}

// MARK: 3a. Light heads, borrowing

struct HeadSetHeaderB: HeadMiddlewareBorrowing {
    let name: String, value: String
    func intercept(_ request: borrowing HTTPRequestHead, next: (borrowing HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        var request = copy request
        request.fields[name] = value
        return try await next(request)
    }
}
struct HeadPassB: HeadMiddlewareBorrowing {
    func intercept(_ request: borrowing HTTPRequestHead, next: (borrowing HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        try await next(request)
    }
}
struct HeadStripB: HeadMiddlewareBorrowing {
    let name: String
    func intercept(_ request: borrowing HTTPRequestHead, next: (borrowing HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        var (data, head) = try await next(request)
        head.fields.removeAll(named: name)
        return (data, head)
    }
}

// MARK: 3b. Light heads, consuming

struct HeadSetHeaderC: HeadMiddlewareConsuming {
    let name: String, value: String
    func intercept(_ request: consuming HTTPRequestHead, next: (consuming HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        request.fields[name] = value
        return try await next(request)
    }
}
struct HeadPassC: HeadMiddlewareConsuming {
    func intercept(_ request: consuming HTTPRequestHead, next: (consuming HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        try await next(request)
    }
}
struct HeadStripC: HeadMiddlewareConsuming {
    let name: String
    func intercept(_ request: consuming HTTPRequestHead, next: (consuming HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
    {
        var (data, head) = try await next(request)
        head.fields.removeAll(named: name)
        return (data, head)
    }
}

// MARK: 4. Light heads, @Sendable non-escaping next

struct SSetHeader: SendableHeadMiddleware {
    let name: String, value: String
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        var request = request
        request.fields[name] = value
        return try await next(request)
    }
}
struct SPass: SendableHeadMiddleware {
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        try await next(request)
    }
}
struct SStrip: SendableHeadMiddleware {
    let name: String
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        var (data, head) = try await next(request)
        head.fields.removeAll(named: name)
        return (data, head)
    }
}
struct TimedOut: Error {}

/// Races the rest of the pipeline against a timer: the smallest shape that compiles.
struct SRace: SendableHeadMiddleware {
    let timeout: Duration
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: LightResult.self) { group in
                group.addTask { try await next(request) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw TimedOut()
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
    }
}
/// The same race, its timer a dispatch source cancelled with the task.
struct SRaceDispatch: SendableHeadMiddleware {
    let seconds: Double
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: LightResult.self) { group in
                group.addTask { try await next(request) }
                group.addTask {
                    try await cancellableSleep(seconds: seconds)
                    throw TimedOut()
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
    }
}
/// The same, one child only (the cost of the group without the timer).
struct SGroup1: SendableHeadMiddleware {
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: LightResult.self) { group in
                group.addTask { try await next(request) }
                return try await group.next()!
            }
        }
    }
}

// MARK: 5. Context

enum RetryOverrideKey: ContextKey { typealias Value = RetryOverride }
struct RetryOverride: Sendable {
    var maxAttempts: Int
    var enabled: Bool
}

struct CSetHeader<Context: ContextStorage>: ContextMiddleware {
    let name: String, value: String, setsKey: Bool
    func intercept(_ request: HTTPRequest<Context>, next: (HTTPRequest<Context>) async throws -> LightResult)
        async throws -> LightResult
    {
        var request = request
        request.head.fields[name] = value
        if setsKey { request.context[RetryOverrideKey.self] = RetryOverride(maxAttempts: 1, enabled: false) }
        return try await next(request)
    }
}
struct CPass<Context: ContextStorage>: ContextMiddleware {
    func intercept(_ request: HTTPRequest<Context>, next: (HTTPRequest<Context>) async throws -> LightResult)
        async throws -> LightResult
    {
        try await next(request)
    }
}
struct CStrip<Context: ContextStorage>: ContextMiddleware {
    let name: String, getsKey: Bool
    func intercept(_ request: HTTPRequest<Context>, next: (HTTPRequest<Context>) async throws -> LightResult)
        async throws -> LightResult
    {
        if getsKey { keepInt(request.context[RetryOverrideKey.self]?.maxAttempts ?? -1) }
        var (data, head) = try await next(request)
        head.fields.removeAll(named: name)
        return (data, head)
    }
}
struct ContextConvertingTransport: ContextTransport {
    let body: Data, response: HTTPURLResponse
    func send<C: ContextStorage>(_ request: HTTPRequest<C>) async throws -> LightResult {
        hand(URLRequest(request.head))
        return (body, HTTPResponseHead(response))
    }
}

/// End to end, converting through one `allHTTPHeaderFields` assignment (see URLRequest(dictionaryFrom:)).
struct DictConvertingTransport: HeadTransport {
    let body: Data, response: HTTPURLResponse
    func send(_ request: HTTPRequestHead) async throws -> LightResult {
        hand(URLRequest(dictionaryFrom: request))
        return (body, HTTPResponseHead(response))
    }
}
struct DictConvertingTransportC: HeadTransportConsuming {
    let body: Data, response: HTTPURLResponse
    func send(_ request: consuming HTTPRequestHead) async throws -> LightResult {
        hand(URLRequest(dictionaryFrom: request))
        return (body, HTTPResponseHead(response))
    }
}
