import Foundation
import HTTPPipeline

/// Fetching, storing, updating and invalidating (RFC 9111 §3, §4.3.4, §4.4), and the responses
/// the cache makes.
extension CacheMiddleware {
    /// Fields never stored (§3.1): the connection's own, and `Cache-Status`, which every serving
    /// adds anew.
    static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "cache-status",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// Fields a 304 never replaces (§3.2): the framing and coding the stored body depends on.
    static let keptOnUpdate: Set<String> = [
        "content-length", "content-encoding", "content-range", "transfer-encoding", "connection", "keep-alive",
        "proxy-connection", "te", "upgrade", "cache-status",
    ]

    /// Sends the request and stores its answer when the standard allows; `signal` is told
    /// whether it was stored.
    func fetch(
        _ request: HTTPRequest, key: String, identity: String?, directives: CacheDirectives, forward: String,
        signal: OnceSignal? = nil, next: HTTPNext
    ) async throws -> HTTPResponse {
        let requestTime = state.now()
        let response = try await next(request)
        if request.method == .head, response.status == 200, !directives.noStore {
            await freshen(key, request: request, with: response, requestTime: requestTime)
        }
        return await storing(
            response, request: request, requestTime: requestTime, key: key, identity: identity, directives: directives,
            forward: forward, signal: signal)
    }

    /// A request for a resource with nothing stored that fits: the first of concurrent identical
    /// misses goes to the network, the others wait for it and read the store (RFC 9111 §4:
    /// "collapsed" requests).
    func miss(
        _ request: HTTPRequest, key: String, identity: String?, directives: CacheDirectives, policy: CachePolicy,
        forward: String, next: HTTPNext
    ) async throws -> HTTPResponse {
        guard request.method == .get else {
            return try await fetch(
                request, key: key, identity: identity, directives: directives, forward: forward, next: next)
        }
        let flight = key + "\u{0}" + (identity ?? "")
        let flights = state.flights
        if flights.lead(flight) {
            let signal = OnceSignal { stored in flights.finish(flight, with: stored ? .stored : .notStored) }
            do {
                return try await fetch(
                    request, key: key, identity: identity, directives: directives, forward: forward, signal: signal,
                    next: next)
            } catch {
                flights.finish(flight, with: .failed(error))
                throw error
            }
        }
        switch await flights.wait(flight, limit: options.collapsingLimit) {
        case .failed(let error)?:
            throw error
        case .stored?:
            let stored = await options.store.entries(forKey: key).first {
                CacheKey.matches($0, request, identity: identity)
            }
            if let stored {
                return try await reuse(
                    stored, request: request, key: key, identity: identity, directives: directives, policy: policy,
                    next: next)
            }
        case .notStored?, nil:
            break
        }
        return try await fetch(
            request, key: key, identity: identity, directives: directives, forward: forward, next: next)
    }

    /// `response` on its way to the caller, stored if it may be: a buffered body at once, a
    /// streamed one when the caller has read it to its end within the entry limit.
    func storing(
        _ response: HTTPResponse, request: HTTPRequest, requestTime: Date, key: String, identity: String?,
        directives: CacheDirectives, forward: String, signal: OnceSignal? = nil
    ) async -> HTTPResponse {
        var response = response
        let status = response.status.code
        let refusal = CachePolicyRules.refusal(
            request: request, requestDirectives: directives, status: status, fields: response.fields,
            shared: options.mode == .shared)
        var stored = false
        if refusal == nil, (response.body.length ?? 0) <= options.maximumEntryBytes {
            var fields = storedFields(response.fields)
            let varying = CacheKey.varying(request, vary: CacheKey.varyNames(response.fields), identity: identity)
            let responseTime = state.now()
            // RFC 9110 §6.6.1: a response cached without a `Date` gets the time it was received.
            if fields[.date] == nil { fields[.date] = HTTPDate.format(responseTime) }
            let entry = CacheEntry(
                key: key, status: status, fields: fields, body: .empty, requestTime: requestTime,
                responseTime: responseTime, varying: varying, decodedByTransport: response.head.decodedByTransport)
            if let data = response.body.bufferedData {
                if data.count <= options.maximumEntryBytes {
                    await options.store.store(entry.replacingBody(response.body))
                    stored = true
                }
                signal?.fire(stored)
            } else if let writer = await options.store.writer(for: entry) {
                response.body = StoringBody.tee(
                    response.body, limit: options.maximumEntryBytes, writer: writer,
                    finished: OnceSignal { stored in signal?.fire(stored) })
                stored = true
            } else {
                signal?.fire(false)
            }
        } else {
            signal?.fire(false)
        }
        var member = "\(options.name); fwd=\(forward); fwd-status=\(status)"
        if stored { member += "; stored" }
        CacheStatusField.append(member, to: &response.head.fields)
        return response
    }

    /// The fields a stored response keeps: not the connection's (nor those `Connection` names),
    /// nor, in a shared cache, those a qualified `private` limits to one user.
    func storedFields(_ fields: HTTPFields) -> HTTPFields {
        var dropped = Self.unstoredFields
        for value in fields[values: .connection] {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        if options.mode == .shared { dropped.formUnion(CacheDirectives(fields).privateFields) }
        return HTTPFields(fields.filter { !dropped.contains($0.name.rawName.lowercased()) })
    }

    /// `entry` with a 304's fields merged in (§3.2) and its times moved to the validation's.
    func updatedEntry(_ entry: CacheEntry, with response: HTTPResponse, requestTime: Date) -> CacheEntry {
        var fields = entry.fields
        let now = state.now()
        var update = response.fields
        // A validation without `Date` happened now (RFC 9110 §6.6.1); one without `Age` came from
        // the origin now (§5.1): the stored `Age` no longer holds.
        if update[.date] == nil { update[.date] = HTTPDate.format(now) }
        if update[.age] == nil { fields.removeAll(named: .age) }
        let names = Set(update.map { $0.name.rawName.lowercased() }).subtracting(Self.keptOnUpdate)
        for name in names {
            let fieldName = HTTPField.Name(unchecked: name)
            fields.removeAll(named: fieldName)
            for value in update[values: fieldName] { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return CacheEntry(
            key: entry.key, status: entry.status, fields: storedFields(fields), body: entry.body,
            requestTime: requestTime, responseTime: now, varying: entry.varying,
            decodedByTransport: entry.decodedByTransport)
    }

    /// The stored response a 304 updates (§4.3.4): the one with its strong validator; else the
    /// most recent with its weak one; else with its `Last-Modified`; else the only one stored,
    /// when neither has a validator.
    static func selectForUpdate(_ entries: [CacheEntry], by response: HTTPResponse) -> CacheEntry? {
        if let tag = EntityTag(response.fields[.eTag]) {
            return entries.first { stored in
                guard let storedTag = EntityTag(stored.fields[.eTag]) else { return false }
                return tag.isWeak ? tag.weakMatches(storedTag) : tag.strongMatches(storedTag)
            }
        }
        if let modified = response.fields[.lastModified] {
            return entries.first { $0.fields[.lastModified] == modified }
        }
        if entries.count == 1, let only = entries.first, only.fields[.eTag] == nil, only.fields[.lastModified] == nil {
            return only
        }
        return nil
    }

    /// A 304 to the caller's own conditional request, or a 200 to a `HEAD` (§4.3.5), freshens the
    /// stored response it selects by its validators.
    func freshen(_ key: String, request: HTTPRequest, with response: HTTPResponse, requestTime: Date) async {
        let identity = options.mode == .private ? CacheKey.identity(of: request) : nil
        let candidates = await options.store.entries(forKey: key).filter {
            CacheKey.matches($0, request, identity: identity)
        }
        guard let selected = Self.selectForUpdate(candidates, by: response) else { return }
        await options.store.store(updatedEntry(selected, with: response, requestTime: requestTime))
    }

    /// Removes what is stored for an unsafe request's URI, and for a same-origin `Location` or
    /// `Content-Location` of its answer (§4.4).
    func invalidate(after request: HTTPRequest, response: HTTPResponse) async {
        var keys: [String] = []
        if let key = CacheKey.key(for: request.url) { keys.append(key) }
        for name in [HTTPField.Name.location, HTTPField.Name(unchecked: "Content-Location")] {
            guard let value = response.fields[name],
                let target = URL(string: value, relativeTo: request.url)?.absoluteURL,
                HTTPOrigin(target) == HTTPOrigin(request.url), let key = CacheKey.key(for: target)
            else { continue }
            keys.append(key)
        }
        for key in keys { await options.store.removeEntries(forKey: key) }
    }

    /// `entry` served: `Age` set, fields a qualified `no-cache` names left out, a `Cache-Status`
    /// member added; an empty body for a `HEAD`.
    func serve(
        _ entry: CacheEntry, request: HTTPRequest, standing: Standing, detail: String?,
        revalidatedFor forward: String? = nil
    ) -> HTTPResponse {
        var fields = entry.fields
        if forward == nil {
            for name in entry.directives.noCacheFields { fields.removeAll(named: HTTPField.Name(unchecked: name)) }
        }
        fields.removeAll(named: .age)
        fields.append(HTTPField(name: .age, value: String(Int(max(0, standing.age).rounded(.down)))))
        let ttl = Int((standing.lifetime - standing.age).rounded(.down))
        var member =
            forward.map { "\(options.name); fwd=\($0); fwd-status=304; stored" } ?? "\(options.name); hit; ttl=\(ttl)"
        if let detail { member += "; detail=\(detail)" }
        CacheStatusField.append(member, to: &fields)
        let head = HTTPResponseHead(
            status: HTTPResponse.Status(code: entry.status), fields: fields,
            decodedByTransport: entry.decodedByTransport)
        return HTTPResponse(head: head, body: request.method == .head ? .empty : entry.body)
    }

    /// The cache's answer when nothing stored may be used and it may not ask the network
    /// (`only-if-cached`, ``CachePolicy/returnCachedOnly``, a stale `must-revalidate` response
    /// it cannot validate): `504 Gateway Timeout` (RFC 9111 §5.2.1.7).
    func gatewayTimeout(_ key: String) -> HTTPResponse {
        var fields = HTTPFields()
        CacheStatusField.append("\(options.name); detail=not-stored-or-usable", to: &fields)
        fields[.contentLength] = "0"
        return HTTPResponse(head: HTTPResponseHead(status: 504, fields: fields), body: .empty)
    }

    /// A response the cache did not handle, marked so: `method` for a method it does not
    /// answer, `bypass` for a request it passes through.
    func bypassing(_ response: HTTPResponse, because forward: String = "bypass") -> HTTPResponse {
        var response = response
        CacheStatusField.append("\(options.name); fwd=\(forward)", to: &response.head.fields)
        return response
    }
}
