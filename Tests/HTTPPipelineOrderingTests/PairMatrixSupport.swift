import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting

// The pair matrix runs every pair of built-in plugins in both orders over the same script and
// compares what a user observes: the outcome, what the transport received, and the log records.

/// Which member of a pair is the outer layer (listed first in the pipeline).
enum PairOrder: String, CaseIterable, Sendable {
    /// The pair's first plugin is listed first, so it is outside the second.
    case firstOutside
    /// The pair's second plugin is listed first, so it is outside the first.
    case secondOutside
}

/// What the caller got back, in a form two orders can be compared by.
enum PairOutcome: Equatable, CustomStringConvertible {
    case response(status: Int, headers: [String: String], body: Data)
    case failure(String)

    var status: Int? {
        if case .response(let status, _, _) = self { return status }
        return nil
    }

    var body: Data? {
        if case .response(_, _, let body) = self { return body }
        return nil
    }

    var description: String {
        switch self {
        case .response(let status, let headers, let body):
            "\(status) \(headers.sorted { $0.key < $1.key }) \(body.count) B"
        case .failure(let error): "thrown \(error)"
        }
    }
}

/// One request as the transport received it.
struct SentRequest: Equatable, CustomStringConvertible {
    let method: String
    let url: String
    let headers: [String: String]
    let body: Data?

    /// The request as recorded by the scripted transport (which records bodies buffered). Fields
    /// of the same name, in any case, are joined with `,` under the first spelling, as a Foundation
    /// request joins them.
    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        url = request.url.absoluteString
        var headers: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in request.fields {
            let name = spelling[field.name.canonicalName] ?? field.name.rawName
            spelling[field.name.canonicalName] = name
            headers[name] = headers[name].map { $0 + "," + field.value } ?? field.value
        }
        self.headers = headers
        body = request.body?.bufferedData
    }

    /// A header's value, its name compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    var description: String {
        "\(method) \(url) \(headers.sorted { $0.key < $1.key }) body: \(body?.count ?? 0) B"
    }
}

/// A log record without its duration (the one field that differs between two identical runs).
struct RecordSummary: Equatable {
    let method: String
    let url: String
    let outcome: HTTPLogRecord.Outcome
    let requestBytes: Int?
    let responseBytes: Int?
    let attempt: Int?
    let requestHeaders: [HTTPLogRecord.Field]
    let responseHeaders: [HTTPLogRecord.Field]

    init(_ record: HTTPLogRecord) {
        method = record.method
        url = record.url
        outcome = record.outcome
        requestBytes = record.requestBytes
        responseBytes = record.responseBytes
        attempt = record.attempt
        requestHeaders = record.requestHeaders
        responseHeaders = record.responseHeaders
    }

    func requestHeader(_ name: String) -> String? {
        requestHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Everything a user can observe of one call through a two-layer pipeline.
struct PairObservation: Equatable {
    let outcome: PairOutcome
    let sent: [SentRequest]
    let records: [RecordSummary]

    /// The value of `name` on every request the transport received, in order.
    func sentHeader(_ name: String) -> [String?] {
        sent.map { $0.header(name) }
    }
}

/// A pair of plugins over a fresh scripted transport, ready to run in either order.
///
/// Build a new setup for each order, so stateful layers (auth's credential store, retry's
/// budget, counters in computed headers) start from scratch every time.
struct PairSetup {
    /// The pair's short name, for example `H–L`.
    let pair: String
    let first: any HTTPMiddleware
    let second: any HTTPMiddleware
    let transport: ScriptedTransport
    let sink: InMemoryLogSink

    init(
        _ pair: String,
        _ first: any HTTPMiddleware,
        _ second: any HTTPMiddleware,
        transport: ScriptedTransport,
        sink: InMemoryLogSink = InMemoryLogSink()
    ) {
        self.pair = pair
        self.first = first
        self.second = second
        self.transport = transport
        self.sink = sink
    }

    /// The layers outermost first.
    func layers(_ order: PairOrder) -> [any HTTPMiddleware] {
        switch order {
        case .firstOutside: [first, second]
        case .secondOutside: [second, first]
        }
    }

    /// Names the pair and the order, for assertion messages: `H–L, DefaultHeaders outside LoggingMiddleware`.
    func label(_ order: PairOrder) -> String {
        let layers = layers(order)
        return "\(pair), \(layers[0].name) outside \(layers[1].name)"
    }

    /// Sends `request` once through the pair in `order` and records what the user observes.
    func observe(_ order: PairOrder, _ request: HTTPRequest = HTTPRequest(url: orderingURL)) async -> PairObservation {
        let pipeline = Pipeline(transport: transport, middleware: layers(order))
        let outcome: PairOutcome
        do {
            let response = try await pipeline.send(request)
            var headers: [String: String] = [:]
            for field in response.fields {
                headers[field.name.rawName] = headers[field.name.rawName].map { $0 + ", " + field.value } ?? field.value
            }
            let data = try await response.body.collect(upTo: 1 << 24)
            outcome = .response(status: response.status.code, headers: headers, body: data)
        } catch {
            outcome = .failure("\(type(of: error)): \(error)")
        }
        return PairObservation(
            outcome: outcome,
            sent: transport.requests.map(SentRequest.init),
            records: sink.records.map(RecordSummary.init)
        )
    }
}

// MARK: - Plugins configured for the matrix

/// A retry layer that never sleeps for real: zero backoff, a manual clock, no budget.
func zeroDelayRetry(maximumAttempts: Int = 3, retrying extraStatuses: Set<HTTPResponse.Status> = []) -> RetryMiddleware
{
    var policy = RetryPolicy.attempts(maximumAttempts, backoff: .immediate)
    policy.retryableStatuses.formUnion(extraStatuses)
    return RetryMiddleware(policy: policy, budget: nil, clock: ManualClock())
}

/// A credential source that starts with `token-0` (or what `make(0)` returns) and hands out
/// `make(1)`, `make(2)`, … on each refresh, counting refreshes.
final class MatrixCredentials: CredentialSource {
    private struct State {
        var current: Credential?
        var refreshes = 0
    }

    private let state: Locked<State>
    private let make: @Sendable (Int) -> Credential

    init(make: @escaping @Sendable (Int) -> Credential = { .bearer("token-\($0)") }) {
        self.make = make
        state = Locked(State(current: make(0)))
    }

    init(initial: Credential, make: @escaping @Sendable (Int) -> Credential = { .bearer("token-\($0)") }) {
        self.make = make
        state = Locked(State(current: initial))
    }

    /// How many refreshes the auth middleware asked for.
    var refreshes: Int { state.value.refreshes }

    func currentCredential() async throws -> Credential? {
        state.value.current
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        let make = self.make
        return state.withLock { state in
            state.refreshes += 1
            let fresh = make(state.refreshes)
            state.current = fresh
            return fresh
        }
    }
}

/// An auth layer over `source` whose timers run on a manual clock.
func matrixAuth(_ source: MatrixCredentials, now: @escaping @Sendable () -> Date = { Date() }) -> AuthMiddleware {
    AuthMiddleware(source: source, clock: ManualClock(), now: now)
}

/// A computed header whose values are `prefix-1`, `prefix-2`, … in the order it is computed.
func countingHeader(_ name: String, prefix: String) -> DefaultHeaders.Header {
    let counter = Locked(0)
    return .computed(name) { _ in
        let next = counter.withLock { count in
            count += 1
            return count
        }
        return "\(prefix)-\(next)"
    }
}

// MARK: - Gzip bodies

/// `text` gzip-compressed, as a server would send it.
func gzipped(_ text: String) throws -> Data {
    try Deflater.compress(Data(text.utf8), format: .gzip)
}

/// A reply carrying `body` as raw wire bytes with `Content-Encoding: gzip` and a matching length.
func gzipReply(_ status: Int, _ body: Data) -> ScriptedTransport.Reply {
    .status(
        status,
        headers: [
            "Content-Encoding": "gzip", "Content-Length": String(body.count), "Content-Type": "application/json",
        ], body: body)
}

/// A gzip body that starts like gzip and is intact by its length, but whose CRC-32 trailer is
/// wrong: the decoder must refuse it.
func corruptGzip(_ text: String) throws -> Data {
    var bytes = [UInt8](try gzipped(text))
    // The trailer is CRC-32 then ISIZE, four bytes each.
    let crcStart = bytes.count - 8
    for index in crcStart..<(crcStart + 4) { bytes[index] ^= 0xFF }
    return Data(bytes)
}

/// Some JSON that compresses well.
let matrixJSON = #"{"books":["# + (1...40).map { #"{"id":\#($0),"title":"Book \#($0)"}"# }.joined(separator: ",") + "]}"

/// A toy body signature (FNV-1a over the body, keyed by the token) for the body-signing test.
func bodySignature(_ body: Data?, token: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in Array(token.utf8) + [0] + [UInt8](body ?? Data()) {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16)
}
