public import Foundation
public import HTTPPipeline

/// A stored response: its head, its body, when it was requested and received, and the request
/// fields its `Vary` names (RFC 9111 §4.1).
public struct CacheEntry: Sendable {
    /// The key it is stored under: method, target URI and, for a private cache, the identity
    /// the request carried.
    public let key: String
    /// The response's status.
    public var status: Int
    /// The response's fields, as stored (updated by a 304's, §3.2).
    public var fields: HTTPFields
    /// The response's body.
    public let body: Data
    /// When the request that got it was sent (§4.2.3 `request_time`).
    public var requestTime: Date
    /// When the response was received (§4.2.3 `response_time`).
    public var responseTime: Date
    /// The request's values of the fields the response's `Vary` names, lowercased names,
    /// normalised values: what a later request must match.
    public let varying: [String: String]
    /// Whether the transport had already decoded the body's content coding
    /// (`HTTPResponseHead.decodedByTransport`): a served copy says so too.
    public let decodedByTransport: Bool

    /// Creates an entry.
    public init(
        key: String, status: Int, fields: HTTPFields, body: Data, requestTime: Date, responseTime: Date,
        varying: [String: String], decodedByTransport: Bool = false
    ) {
        self.decodedByTransport = decodedByTransport
        self.key = key
        self.status = status
        self.fields = fields
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
    }

    /// The bytes it takes in a store, roughly: body, fields and key.
    public var size: Int {
        body.count + key.utf8.count + fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
            + varying.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }
}

extension CacheEntry {
    /// The response's `Cache-Control` directives.
    var directives: CacheDirectives { CacheDirectives(fields) }

    /// The `Date` field, or the time it was received when it has none or an invalid one
    /// (RFC 9110 §6.6.1).
    var dateValue: Date { fields[.date].flatMap(HTTPDate.parse) ?? responseTime }

    /// Its current age in seconds (RFC 9111 §4.2.3).
    func currentAge(now: Date) -> Double {
        // An Age that is not a non-negative integer is ignored (§5.1); a list takes its first member.
        let ageValue =
            fields[.age].flatMap { value in
                CacheDirectives.deltaSeconds(
                    String(value.split(separator: ",").first ?? "").trimmingCharacters(in: .whitespaces))
            } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = Double(ageValue) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return correctedInitialAge + residentTime
    }

    /// Its freshness lifetime in seconds (RFC 9111 §4.2.1): `s-maxage` (shared caches), then
    /// `max-age`, then `Expires` minus `Date` (an invalid `Expires` is already expired), then a
    /// heuristic (§4.2.2) where one is allowed: a tenth of the time since `Last-Modified`, at most
    /// `heuristicCeiling`.
    func freshnessLifetime(shared: Bool, heuristicCeiling: Double) -> Double {
        let directives = self.directives
        if shared, let sharedMaxAge = directives.sharedMaxAge { return Double(sharedMaxAge) }
        if let maxAge = directives.maxAge { return Double(maxAge) }
        let expiresLines = fields[values: .expires]
        if let expires = expiresLines.first {
            guard expiresLines.count == 1, let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(dateValue))
        }
        guard CachePolicyRules.heuristicallyCacheable.contains(status) || directives.isPublic,
            let lastModified = fields[.lastModified].flatMap(HTTPDate.parse)
        else { return 0 }
        let sinceModified = dateValue.timeIntervalSince(lastModified)
        return sinceModified > 0 ? min(sinceModified / 10, heuristicCeiling) : 0
    }
}
