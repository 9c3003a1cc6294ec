public import Foundation
public import HTTPPipeline

/// A stored response: its head, its body, when it was requested and received, and the request
/// fields its `Vary` names (RFC 9111 §4.1).
///
/// What the cache reads from its fields on every reuse (`Cache-Control`, `Date`, `Age`,
/// `Expires`, `Last-Modified`, `Vary`) is read once, when the entry is made.
public struct CacheEntry: Sendable {
    /// The key it is stored under: the target URI.
    public let key: String
    /// The response's status.
    public let status: Int
    /// The response's fields, as stored (a 304's merged in, §3.2).
    public let fields: HTTPFields
    /// The response's body: buffered bytes, or (from a store that keeps large bodies in files) a
    /// replayable stream that reads them anew for every read. Its length is always known.
    public let body: HTTPBody
    /// When the request that got it was sent (§4.2.3 `request_time`).
    public let requestTime: Date
    /// When the response was received (§4.2.3 `response_time`).
    public let responseTime: Date
    /// The request's values of the fields the response's `Vary` names (lowercased names,
    /// normalised values) and, in a private cache, its identity: what a later request must match.
    public let varying: [String: String]
    /// Whether the transport had already decoded the body's content coding
    /// (`HTTPResponseHead.decodedByTransport`): a served copy says so too.
    public let decodedByTransport: Bool
    /// The bytes it takes in a store, roughly: body, fields and key.
    public let size: Int
    /// What it takes besides its body: fields, key and varying values.
    let overhead: Int

    /// The response's `Cache-Control` directives.
    let directives: CacheDirectives
    /// The `Date` field, or the time it was received when it has none or an invalid one
    /// (RFC 9110 §6.6.1).
    let dateValue: Date
    /// The `Age` field: its first member when it is a list, 0 when it is invalid (§5.1).
    let ageValue: Int
    /// The field names its `Vary` lists, lowercased.
    let varyNames: [String]
    /// `Expires` minus `Date`: 0 for an invalid or repeated `Expires`; `nil` without one.
    let expiresLifetime: Double?
    /// `Date` minus `Last-Modified`, where a heuristic may apply (§4.2.2); `nil` otherwise.
    let sinceModified: Double?

    /// Creates an entry. A streamed `body` must say its length.
    public init(
        key: String, status: Int, fields: HTTPFields, body: HTTPBody, requestTime: Date, responseTime: Date,
        varying: [String: String], decodedByTransport: Bool = false
    ) {
        self.key = key
        self.status = status
        self.fields = fields
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
        self.decodedByTransport = decodedByTransport
        overhead =
            key.utf8.count + fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
            + varying.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        size = (body.length ?? 0) + overhead
        let directives = CacheDirectives(fields)
        self.directives = directives
        let date = fields[.date].flatMap { HTTPDate.parse($0, now: responseTime) } ?? responseTime
        dateValue = date
        ageValue =
            fields[.age].flatMap { value in
                CacheDirectives.deltaSeconds(
                    String(value.split(separator: ",").first ?? "").trimmingCharacters(in: .whitespaces))
            } ?? 0
        varyNames = CacheKey.varyNames(fields)
        let expires = fields[values: .expires]
        if let first = expires.first {
            let expiry = expires.count == 1 ? HTTPDate.parse(first, now: responseTime) : nil
            expiresLifetime = expiry.map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else {
            expiresLifetime = nil
        }
        if CachePolicyRules.heuristicallyCacheable.contains(status) || directives.isPublic,
            let modified = fields[.lastModified].flatMap({ HTTPDate.parse($0, now: responseTime) })
        {
            sinceModified = date.timeIntervalSince(modified)
        } else {
            sinceModified = nil
        }
    }
}

extension CacheEntry {
    /// The same entry with another body (a store's copy of the one it was given).
    func replacingBody(_ body: HTTPBody) -> CacheEntry {
        CacheEntry(
            key: key, status: status, fields: fields, body: body, requestTime: requestTime, responseTime: responseTime,
            varying: varying, decodedByTransport: decodedByTransport)
    }

    /// Its current age in seconds (RFC 9111 §4.2.3).
    func currentAge(now: Date) -> Double {
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
        if shared, let sharedMaxAge = directives.sharedMaxAge { return Double(sharedMaxAge) }
        if let maxAge = directives.maxAge { return Double(maxAge) }
        if let expiresLifetime { return expiresLifetime }
        guard let sinceModified, sinceModified > 0 else { return 0 }
        return min(sinceModified / 10, heuristicCeiling)
    }
}
