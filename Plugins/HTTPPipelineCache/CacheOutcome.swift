import Foundation
public import HTTPPipeline

/// What a ``CacheMiddleware`` did for a response, read from the `Cache-Status` field it adds
/// (RFC 9211), so logs show it and tests can check it:
///
/// ```swift
/// import Foundation
/// import HTTPPipeline
/// import HTTPPipelineCache
///
/// func showOutcome(of pipeline: some HTTPTransport, at url: URL) async throws {
///     let response = try await pipeline.send(HTTPRequest(url: url))
///     if CacheOutcome(response.head) == .hit { print("no round trip") }
/// }
/// ```
public enum CacheOutcome: String, Sendable, Equatable {
    /// Served from the store, fresh: no round trip.
    case hit
    /// Served from the store, stale: allowed by the request's `max-stale`, the response's
    /// `stale-while-revalidate` (a revalidation runs in the background) or `stale-if-error`
    /// (the network failed), or by the call's ``CachePolicy``.
    case staleHit = "stale-hit"
    /// The stored response was validated with a conditional request and a 304: one round trip,
    /// no body.
    case revalidated
    /// Fetched from the network (nothing stored, nothing usable, or the request said so).
    case miss
    /// Not a request the cache handles (not `GET` or `HEAD`, or the caller's own conditional
    /// request): passed through.
    case bypass

    /// The outcome the cache named `cache` recorded in `head`'s `Cache-Status`, if any.
    ///
    /// - Parameters:
    ///   - head: A response head that went through the cache.
    ///   - cache: The cache's name (``CacheOptions/name``).
    public init?(_ head: HTTPResponseHead, cache: String = "HTTPPipelineCache") {
        let members = head.fields[values: CacheStatusField.name].flatMap { $0.split(separator: ",") }
        guard
            let member = members.last(where: {
                $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == cache
            })
        else { return nil }
        let parameters = member.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        if parameters.contains("hit") {
            let ttl = parameters.first { $0.hasPrefix("ttl=") }.flatMap { Int($0.dropFirst(4)) } ?? 0
            self = ttl < 0 ? .staleHit : .hit
        } else if parameters.contains("fwd=stale") || parameters.contains("fwd=request"),
            parameters.contains("fwd-status=304")
        {
            self = .revalidated
        } else if parameters.contains("fwd=bypass") || parameters.contains("fwd=method") {
            self = .bypass
        } else {
            self = .miss
        }
    }
}

/// The `Cache-Status` field (RFC 9211).
enum CacheStatusField {
    static let name = HTTPField.Name(unchecked: "Cache-Status")

    /// Appends the cache's member to `fields`' `Cache-Status`: this cache is the one closest to
    /// the caller, so it goes last.
    static func append(_ member: String, to fields: inout HTTPFields) {
        if let existing = fields[name] {
            fields[name] = existing + ", " + member
        } else {
            fields[name] = member
        }
    }
}
