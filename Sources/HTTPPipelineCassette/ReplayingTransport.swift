import Foundation
public import HTTPPipeline

/// A transport that answers requests from a ``Cassette``: deterministic, offline, on every
/// platform.
///
/// ```swift
/// import HTTPPipelineStandard
///
/// let cassette = try Cassette(contentsOf: URL(fileURLWithPath: "Cassettes/books.har"))
/// let client = try StandardPipeline.build(over: try ReplayingTransport(cassette))
/// let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/books")!))
/// ```
///
/// A request is matched to an entry by ``MatchRules`` (method and URL by default), comparing
/// both redacted; repeated identical requests are served the matching entries in recorded order
/// (the order the requests were sent), each once, a secret keeping its placeholder (see
/// ``MatchRules``). What happens to a request no unserved entry matches depends on the ``Mode``.
/// Put it where the recording transport was, at the bottom of the same pipeline, so that each
/// attempt and redirect hop finds its own entry.
public struct ReplayingTransport: HTTPTransport {
    /// What happens to a request that no unserved entry matches.
    public enum Mode: Sendable {
        /// It throws ``CassetteError/noMatch(request:closest:)``, naming the closest entry and
        /// what differed, or ``CassetteError/exhausted(request:served:)`` when the matching
        /// entries were all served.
        case strict
        /// It is sent through `transport` and recorded into the cassette (and served from it
        /// from then on, once).
        case recordMissing(over: any HTTPTransport)
        /// It is sent through `transport`, and nothing is recorded.
        case passThrough(over: any HTTPTransport)
    }

    struct Index: Sendable {
        var exchanges: [RecordedExchange]
        var served: [Bool]
        var byKey: [String: [Int]] = [:]
        /// The placeholder each live secret has been served under, and the secret of each
        /// placeholder: within one replay a secret keeps its number.
        var numberOfSecret: [String: Int] = [:]
        var secretOfNumber: [Int: String] = [:]

        mutating func add(_ exchange: RecordedExchange, served: Bool, origin: Bool) {
            byKey[RecordedExchange.key(method: exchange.method, parts: exchange.parts, origin: origin), default: []]
                .append(exchanges.count)
            exchanges.append(exchange)
            self.served.append(served)
        }

        /// Whether serving an entry under these pairs keeps every secret to one placeholder: with
        /// the bindings made so far, and among the pairs themselves.
        func agrees(with pairs: [(secret: String, number: Int)]) -> Bool {
            for (index, pair) in pairs.enumerated() {
                if let bound = numberOfSecret[pair.secret], bound != pair.number { return false }
                if let bound = secretOfNumber[pair.number], bound != pair.secret { return false }
                for other in pairs[..<index] where (other.secret == pair.secret) != (other.number == pair.number) {
                    return false
                }
            }
            return true
        }

        /// Marks an entry served, binding its pairs' secrets to their placeholders.
        mutating func serve(_ position: Int, binding pairs: [(secret: String, number: Int)]) -> RecordedReply {
            served[position] = true
            for (secret, number) in pairs where numberOfSecret[secret] == nil && secretOfNumber[number] == nil {
                numberOfSecret[secret] = number
                secretOfNumber[number] = secret
            }
            return exchanges[position].reply
        }
    }

    /// The outcome of a lookup.
    enum Lookup: Sendable {
        case found(RecordedReply)
        case unmatched(CassetteError)
    }

    /// The cassette answered from (and recorded into, in ``Mode/recordMissing(over:)``).
    public let cassette: Cassette
    let mode: Mode
    let rules: MatchRules
    let bodyLimit: Int
    let index: Locked<Index>

    /// Creates a replaying transport over the cassette's entries as they are now.
    ///
    /// - Parameters:
    ///   - cassette: The recorded exchanges.
    ///   - mode: What happens to an unmatched request; ``Mode/strict`` by default.
    ///   - rules: How requests are matched; ``MatchRules/default`` by default.
    ///   - bodyLimit: The most bytes of a request body read for the body matcher or recorded;
    ///     16 MiB by default.
    /// - Throws: ``CassetteError/badBase64(entry:)`` for an entry whose body cannot be decoded.
    public init(
        _ cassette: Cassette,
        mode: Mode = .strict,
        rules: MatchRules = .default,
        bodyLimit: Int = 16 << 20
    ) throws(CassetteError) {
        self.cassette = cassette
        self.mode = mode
        self.rules = rules
        self.bodyLimit = bodyLimit
        var index = Index(exchanges: [], served: [])
        for (position, entry) in cassette.entries.enumerated() {
            index.add(
                try RecordedExchange(entry, index: position, redaction: cassette.redactor.redaction), served: false,
                origin: rules.matchesOrigin)
        }
        self.index = Locked(index)
    }

    /// Answers the request from the cassette, or as the mode says when nothing matches.
    ///
    /// - Parameter request: The request.
    /// - Returns: The recorded response: its body buffered, or streamed in its recorded chunks.
    /// - Throws: ``CassetteError`` for an unmatched request in ``Mode/strict`` mode, or what the
    ///   transport of the other modes threw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        var body: Data?
        if rules.bodies != nil, let collected = try await Cassette.collect(request.body, limit: bodyLimit) {
            body = collected
            request.body = HTTPBody(collected)
        }
        let live = LiveRequest(request, body: body, redactor: cassette.redactor, needsBody: rules.bodies != nil)
        let lookup = index.withLock { index in Self.lookup(live, in: &index, rules: rules) }
        switch (lookup, mode) {
        case (.found(let reply), _): return try await reply.response()
        case (.unmatched(let error), .strict): throw error
        case (.unmatched, .passThrough(let transport)): return try await transport.send(request)
        case (.unmatched, .recordMissing(let transport)):
            // Indexed once recorded (a streamed body when it ends), under the entry's position at
            // that moment (messages name it; an earlier request recorded later moves it on by one).
            let (index, rules, redaction) = (self.index, rules, cassette.redactor.redaction)
            return try await cassette.exchangeRecording(request, over: transport, bodyLimit: bodyLimit) {
                entry, position in
                guard let exchange = try? RecordedExchange(entry, index: position, redaction: redaction) else { return }
                index.withLock { $0.add(exchange, served: true, origin: rules.matchesOrigin) }
            }
        }
    }

    /// The first unserved entry matching the request, marked served; or the error naming the
    /// closest one. Among matching entries, the first whose placeholders agree with the secrets
    /// served so far (in compared headers) goes first: a token served as `<redacted-1>` is not
    /// served an entry recorded with `<redacted-2>` while one with `<redacted-1>` is left.
    static func lookup(_ live: LiveRequest, in index: inout Index, rules: MatchRules) -> Lookup {
        let key = RecordedExchange.key(method: live.method, parts: live.parts, origin: rules.matchesOrigin)
        var matched = 0
        var firstUnserved: Int?
        for position in index.byKey[key] ?? [] {
            guard Matching.differences(live, index.exchanges[position], rules: rules).isEmpty else { continue }
            guard !index.served[position] else {
                matched += 1
                continue
            }
            let pairs = Matching.placeholderPairs(live, index.exchanges[position], rules: rules.headers)
            if index.agrees(with: pairs) { return .found(index.serve(position, binding: pairs)) }
            if firstUnserved == nil { firstUnserved = position }
        }
        if let firstUnserved { return .found(index.serve(firstUnserved, binding: [])) }
        if matched > 0 { return .unmatched(.exhausted(request: live.summary, served: matched)) }
        var closest: CassetteError.Closest?
        var best = Int.max
        for exchange in index.exchanges {
            let differences = Matching.differences(live, exchange, rules: rules)
            let weight = Matching.weight(differences)
            if weight < best {
                best = weight
                closest = CassetteError.Closest(
                    entry: exchange.index,
                    request: "\(exchange.method) \(exchange.url)",
                    differences: differences
                )
            }
        }
        return .unmatched(.noMatch(request: live.summary, closest: closest))
    }
}
