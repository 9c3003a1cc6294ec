import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension GzipMiddleware {
    /// What the response head says about whether its body is still the bytes that were sent.
    enum WireEvidence {
        /// `Content-Length` equals the body's size: these are the wire bytes.
        case intact
        /// `Content-Length` differs from the body's size: something below decoded it.
        case transformed
        /// No usable `Content-Length` (chunked, or a transport that does not set it).
        case unknown

        init(_ response: HTTPURLResponse, bodySize: Int) {
            guard
                let field = response.value(forHTTPHeaderField: "Content-Length"),
                let length = Int(field.trimmingCharacters(in: .whitespaces))
            else {
                self = .unknown
                return
            }
            self = length == bodySize ? .intact : .transformed
        }
    }

    /// The codings `Content-Encoding` lists, in the order they were applied, or `nil` when it
    /// names one this middleware does not decode. `identity` and empty entries are skipped.
    static func codings(in field: String) -> [GzipDecoder.Coding]? {
        var codings: [GzipDecoder.Coding] = []
        for token in field.split(separator: ",") {
            switch token.trimmingCharacters(in: .whitespaces).lowercased() {
            case "gzip", "x-gzip": codings.append(.gzip)
            case "deflate": codings.append(.deflate)
            case "identity", "": continue
            default: return nil
            }
        }
        return codings
    }

    /// Whether the response is a gzip file served as such (`application/gzip`).
    static func isGzipDownload(_ response: HTTPURLResponse) -> Bool {
        guard let field = response.value(forHTTPHeaderField: "Content-Type") else { return false }
        let media = field.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media == "application/gzip" || media == "application/x-gzip"
    }

    /// The response as handed to the layer above: decoded, passed through as already decoded,
    /// or untouched.
    func decode(_ data: Data, _ response: HTTPURLResponse, for request: URLRequest) throws(GzipError) -> (
        Data, HTTPURLResponse
    ) {
        guard !data.isEmpty else { return (data, response) }
        let field = response.value(forHTTPHeaderField: "Content-Encoding") ?? ""
        guard let codings = Self.codings(in: field) else {
            // A coding this layer does not decode (`br`, `zstd`) stays as it is, unless the
            // transport already decoded it (URLSession does, for `br`): then the header would lie.
            guard WireEvidence(response, bodySize: data.count) == .transformed else { return (data, response) }
            return (data, Self.plainHead(response, size: data.count, for: request))
        }
        if codings.isEmpty {
            guard options.decodesGzipDownloads, Self.isGzipDownload(response) else { return (data, response) }
            return try decodeDownload(data, response, for: request)
        }
        let evidence = WireEvidence(response, bodySize: data.count)
        if evidence == .transformed {
            return (data, Self.plainHead(response, size: data.count, for: request))
        }
        guard codings.count <= GzipOptions.maximumStackedCodings else {
            throw .tooManyCodings(count: codings.count, maximum: GzipOptions.maximumStackedCodings)
        }
        let limit = options.outputLimit(forWireSize: data.count)
        var body = data
        for (layer, coding) in codings.reversed().enumerated() {
            // Only the outermost layer can have been decoded below; inner layers come from our
            // own decoding and must be what the header says.
            let plainBody: GzipDecoder.PlainBody =
                layer > 0 ? .never : evidence == .intact || coding == .gzip ? .whenUnrecognised : .whenUndecodable
            var statistics = DecodeStatistics()
            switch try GzipDecoder.decode(body, as: coding, limit: limit, plainBody: plainBody, statistics: &statistics)
            {
            case .decoded(let decoded): body = decoded
            case .plain: return (data, Self.plainHead(response, size: data.count, for: request))
            }
        }
        return (body, Self.plainHead(response, size: body.count, for: request))
    }

    /// A `.gz` download: decoded when it is gzip, untouched otherwise.
    private func decodeDownload(_ data: Data, _ response: HTTPURLResponse, for request: URLRequest) throws(GzipError)
        -> (Data, HTTPURLResponse)
    {
        var statistics = DecodeStatistics()
        let limit = options.outputLimit(forWireSize: data.count)
        switch try GzipDecoder.decode(
            data, as: .gzip, limit: limit, plainBody: .whenUnrecognised, statistics: &statistics)
        {
        case .plain:
            return (data, response)
        case .decoded(let decoded):
            let head = Self.head(
                response,
                for: request,
                setting: ["Content-Length": String(decoded.count), "Content-Type": "application/octet-stream"]
            )
            return (decoded, head)
        }
    }

    /// The head of a plain response: no `Content-Encoding`, `Content-Length` of `size`.
    static func plainHead(_ response: HTTPURLResponse, size: Int, for request: URLRequest) -> HTTPURLResponse {
        head(response, for: request, removing: "Content-Encoding", setting: ["Content-Length": String(size)])
    }

    /// A copy of `response` with one field removed and others set, names compared
    /// case-insensitively.
    static func head(
        _ response: HTTPURLResponse,
        for request: URLRequest,
        removing removed: String? = nil,
        setting fields: [String: String]
    ) -> HTTPURLResponse {
        let replaced = Set(fields.keys.map { $0.lowercased() } + [removed?.lowercased()].compactMap { $0 })
        var headers = fields
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String, !replaced.contains(name.lowercased()) else { continue }
            headers[name] = value as? String ?? String(describing: value)
        }
        let url = response.url ?? request.url ?? URL(fileURLWithPath: "/")
        // Foundation refuses a head only for an invalid status, and this one came from a
        // response; keeping the original is the safe fallback.
        return HTTPURLResponse(
            url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
            ?? response
    }
}
