import Foundation
import HTTPPipeline

/// Reusing a stored response (RFC 9111 §4): served as it is, served stale, or validated.
extension CacheMiddleware {
    /// How a stored response stands for a request now.
    struct Standing {
        let age: Double
        let lifetime: Double
        var isFresh: Bool { age < lifetime }
        /// Seconds past its freshness; negative while fresh.
        var staleness: Double { age - lifetime }
    }

    func standing(of entry: CacheEntry) -> Standing {
        Standing(
            age: entry.currentAge(now: state.now()),
            lifetime: entry.freshnessLifetime(
                shared: options.mode == .shared, heuristicCeiling: options.heuristicCeiling.seconds))
    }

    /// Whether `entry` must not be served stale: `must-revalidate`, or in a shared cache
    /// `proxy-revalidate` or `s-maxage` (§5.2.2.10).
    func mustRevalidate(_ entry: CacheEntry) -> Bool {
        let stored = entry.directives
        return stored.mustRevalidate
            || (options.mode == .shared && (stored.proxyRevalidate || stored.sharedMaxAge != nil))
    }

    /// Whether `entry` may answer the request as it is, without the origin (§4.2, §5.2.1), under
    /// `policy`.
    func isServable(
        _ entry: CacheEntry, standing: Standing, directives: CacheDirectives, policy: CachePolicy
    ) -> Bool {
        let stored = entry.directives
        let mustRevalidate = mustRevalidate(entry)
        switch policy {
        case .returnCachedElseLoad, .returnCachedOnly:
            // A `no-cache` response, or a stale one that must be revalidated, is never served
            // unvalidated.
            return !stored.noCache && (standing.isFresh || !mustRevalidate)
        case .useProtocol:
            guard !directives.noCache, !stored.noCache else { return false }
            // `max-age=0` asks for validation whatever the age (a whole-second age of 0 does not
            // count); RFC 8246: a fresh immutable response answers such a reload unvalidated.
            let ageAllowed =
                directives.maxAge.map { $0 > 0 && standing.age <= Double($0) } ?? true
                || (stored.immutable && standing.isFresh)
            guard ageAllowed else { return false }
            if standing.isFresh {
                return directives.minFresh.map { standing.lifetime - standing.age >= Double($0) } ?? true
            }
            if mustRevalidate { return false }
            switch directives.maxStale {
            case .any?: return true
            case .seconds(let seconds)?: return standing.staleness <= Double(seconds)
            case nil: return false
            }
        default:
            return false
        }
    }

    func reuse(
        _ entry: CacheEntry, request: HTTPRequest, key: String, identity: String?, directives: CacheDirectives,
        policy: CachePolicy, next: HTTPNext
    ) async throws -> HTTPResponse {
        let standing = standing(of: entry)
        let stored = entry.directives
        let mustRevalidate = mustRevalidate(entry)
        if isServable(entry, standing: standing, directives: directives, policy: policy) {
            return serve(entry, request: request, standing: standing, detail: nil)
        }
        if policy == .returnCachedOnly { return gatewayTimeout(key) }
        if policy == .useProtocol, !directives.noCache, !stored.noCache, !standing.isFresh, !mustRevalidate,
            directives.maxAge.map({ $0 > 0 && standing.age <= Double($0) }) ?? true,
            let window = stored.staleWhileRevalidate, standing.staleness <= Double(window), directives.minFresh == nil,
            let transport = options.revalidationTransport
        {
            revalidateInBackground(entry, request: request, key: key, identity: identity, through: transport)
            return serve(entry, request: request, standing: standing, detail: "stale-while-revalidate")
        }
        if directives.onlyIfCached { return gatewayTimeout(key) }
        // RFC 9211: a fresh response the request would not take goes forward for the request;
        // otherwise because it is stale (or must be validated).
        let forward = standing.isFresh && !stored.noCache ? "request" : "stale"
        if request.method == .head {
            // A HEAD is not validated against a stored GET: it goes to the network as it is.
            return try await fetch(
                request, key: key, identity: identity, directives: directives, forward: forward, next: next)
        }
        return try await validate(
            entry, request: request, key: key, identity: identity, directives: directives, standing: standing,
            mustRevalidate: mustRevalidate, forward: forward, next: next)
    }

    /// Sends a conditional request built from `entry`'s validators; a 304 serves the updated
    /// entry, anything else is a new response.
    func validate(
        _ entry: CacheEntry, request: HTTPRequest, key: String, identity: String?, directives: CacheDirectives,
        standing: Standing, mustRevalidate: Bool, forward: String, next: HTTPNext
    ) async throws -> HTTPResponse {
        var conditional = request
        if let tag = entry.fields[.eTag] { conditional.fields[.ifNoneMatch] = tag }
        if let modified = entry.fields[.lastModified] { conditional.fields[.ifModifiedSince] = modified }
        let requestTime = state.now()
        let response: HTTPResponse
        do {
            response = try await next(conditional)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if let stale = staleOnError(
                entry, request: request, directives: directives, standing: standing, mustRevalidate: mustRevalidate)
            {
                return stale
            }
            if mustRevalidate, !standing.isFresh { return gatewayTimeout(key) }
            throw error
        }
        if response.status == 304 {
            guard let updated = Self.selectForUpdate([entry], by: response) else {
                // A 304 for another representation: ask again, unconditionally.
                return try await fetch(
                    request, key: key, identity: identity, directives: directives, forward: forward, next: next)
            }
            let fresh = updatedEntry(updated, with: response, requestTime: requestTime)
            // §5.2.1.5: a request's `no-store` stores no part of any response to it.
            if !directives.noStore { await options.store.store(fresh) }
            return serve(
                fresh, request: request, standing: self.standing(of: fresh), detail: nil, revalidatedFor: forward)
        }
        if [500, 502, 503, 504].contains(response.status.code),
            let stale = staleOnError(
                entry, request: request, directives: directives, standing: standing, mustRevalidate: mustRevalidate)
        {
            return stale
        }
        return await storing(
            response, request: request, requestTime: requestTime, key: key, identity: identity, directives: directives,
            forward: forward)
    }

    /// The stored response served stale after a failure, when `stale-if-error` (the response's
    /// or the request's, RFC 5861 §4) allows this much staleness; `nil` otherwise.
    func staleOnError(
        _ entry: CacheEntry, request: HTTPRequest, directives: CacheDirectives, standing: Standing,
        mustRevalidate: Bool
    ) -> HTTPResponse? {
        guard !entry.directives.noCache, !mustRevalidate || standing.isFresh else { return nil }
        let window = [entry.directives.staleIfError, directives.staleIfError].compactMap { $0 }.max()
        guard let window, standing.staleness <= Double(window) else { return nil }
        return serve(entry, request: request, standing: standing, detail: "stale-if-error")
    }

    /// One validation of `entry` in the background through `transport`, for
    /// `stale-while-revalidate`: at most one per stored response at a time; its outcome is
    /// stored, never served to this caller.
    func revalidateInBackground(
        _ entry: CacheEntry, request: HTTPRequest, key: String, identity: String?, through transport: any HTTPTransport
    ) {
        let marker = key + "\u{0}" + (identity ?? "")
        guard state.revalidating.withLock({ $0.insert(marker).inserted }) else { return }
        let middleware = self
        Task {
            defer { middleware.state.revalidating.withLock { _ = $0.remove(marker) } }
            var request = request
            request.fields[.cacheControl] = nil
            request.fields[.pragma] = nil
            let standing = middleware.standing(of: entry)
            guard
                let response = try? await middleware.validate(
                    entry, request: request, key: key, identity: identity, directives: CacheDirectives(),
                    standing: standing, mustRevalidate: false, forward: "stale", next: { try await transport.send($0) })
            else { return }
            // Read to its end (or just past the entry limit), so a new body is stored.
            var read = 0
            do {
                for try await chunk in response.body {
                    read += chunk.count
                    if read > middleware.options.maximumEntryBytes { break }
                }
            } catch {}
        }
    }
}
