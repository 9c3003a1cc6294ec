import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport under a soak run: it checks the bearer token against the ``SoakServer``, then
/// injects the faults ``SoakConfiguration`` asks for, and otherwise answers 200 with a body
/// naming the request, gzipped twice under one `Content-Encoding: gzip`, so the caller can tell it
/// got its own response, decoded exactly once.
///
/// Requests are `GET /soak/<id>`; `GET /soak/<id>/hang` waits (up to five seconds) for its caller
/// to cancel it. Unlike `ScriptedTransport` it records nothing per request, so memory stays flat
/// however long it runs.
struct FaultInjectingTransport: HTTPTransport {
    let server: SoakServer
    let configuration: SoakConfiguration

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = request.fields["Authorization"]?.dropFirst("Bearer ".count)
        let presented = token.map(String.init)
        let url = request.url
        if url.path == SoakRequest.checkPath {
            server.checked(presented)
            let accepted = server.accepts(presented, id: nil, attempt: 0)
            return HTTPResponse(status: accepted ? 204 : 401)
        }
        guard let id = SoakRequest.id(of: url) else {
            return HTTPResponse(status: 400)
        }
        guard server.accepts(presented, id: id, attempt: request.context.attempt ?? 0) else {
            return HTTPResponse(status: 401)
        }
        if url.path.hasSuffix("/hang") {
            try await Task.sleep(for: .seconds(5))
            return HTTPResponse(status: 599)
        }
        let seed = schedule(id: id, attempt: request.context.attempt, token: presented)
        var random = SeededRandomNumberGenerator(seed: seed)
        var roll = Double.random(in: 0..<1, using: &random)
        let fault = Fault.allCases.first { fault in
            defer { roll -= rate(of: fault) }
            return roll < rate(of: fault)
        }
        switch fault {
        case .revocation:
            _ = server.revoke(presented)
            return HTTPResponse(status: 401)
        case .unavailable:
            return HTTPResponse(status: 503)
        case .throttled:
            return HTTPResponse(status: 429, fields: [.retryAfter: "0"])
        case .transportError:
            throw URLError(Bool.random(using: &random) ? .networkConnectionLost : .timedOut)
        case .corruptGzip:
            var body = try SoakRequest.body(id: id)
            body[body.count / 2] ^= 0xFF
            return HTTPResponse(status: 200, fields: [.contentEncoding: "gzip"], body: HTTPBody(body))
        case .delay:
            let microseconds = Int.random(in: 0...max(0, Int(configuration.maximumDelay.seconds * 1e6)), using: &random)
            try await Task.sleep(for: .microseconds(microseconds))
        case nil:
            break
        }
        let body = try SoakRequest.body(id: id)
        return HTTPResponse(status: 200, fields: [.contentEncoding: "gzip"], body: HTTPBody(body))
    }

    private enum Fault: CaseIterable {
        case revocation, unavailable, throttled, transportError, corruptGzip, delay
    }

    private func rate(of fault: Fault) -> Double {
        switch fault {
        case .revocation: configuration.revocationRate
        case .unavailable: configuration.unavailableRate
        case .throttled: configuration.throttledRate
        case .transportError: configuration.transportErrorRate
        case .corruptGzip: configuration.corruptGzipRate
        case .delay: configuration.delayRate
        }
    }

    /// The seed of one attempt's faults: the run's seed, the request, the retry attempt and the
    /// token, so a replay after a refresh meets different faults than the attempt it replays.
    private func schedule(id: Int, attempt: Int?, token: String?) -> UInt64 {
        var hasher = SeededRandomNumberGenerator(seed: configuration.seed ^ UInt64(id) &* 0x9E37_79B9)
        var seed = hasher.next() ^ UInt64(attempt ?? 0) &* 0xBF58_476D
        for byte in (token ?? "").utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return seed
    }
}

/// The requests of a soak run and the body each one's response must decode to.
enum SoakRequest {
    /// The path of the request sent after the run to see which credential the pipeline uses.
    static let checkPath = "/soak-check"

    static func url(id: Int, hang: Bool) -> URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "soak.invalid"
        components.path = "/soak/\(id)" + (hang ? "/hang" : "")
        return components.url ?? URL(fileURLWithPath: "/soak/\(id)")
    }

    static var checkURL: URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "soak.invalid"
        components.path = checkPath
        return components.url ?? URL(fileURLWithPath: checkPath)
    }

    static func id(of url: URL) -> Int? {
        let parts = url.path.split(separator: "/")
        guard parts.count >= 2, parts[0] == "soak" else { return nil }
        return Int(parts[1])
    }

    /// The JSON that names request `id`.
    static func plainBody(id: Int) -> Data {
        Data("{\"request\":\(id),\"padding\":\"\(String(repeating: "soak ", count: 40))\"}".utf8)
    }

    /// What request `id`'s body must be after the pipeline: gzip of its JSON. The wire body is
    /// gzip of that, labelled `Content-Encoding: gzip` once, so decoding it once gives this and
    /// decoding it twice gives the JSON, which the caller tells apart.
    static func expectedBody(id: Int) -> Data {
        (try? Deflater.compress(plainBody(id: id), format: .gzip)) ?? Data()
    }

    /// The wire body of request `id`'s 200.
    static func body(id: Int) throws -> Data {
        try Deflater.compress(expectedBody(id: id), format: .gzip)
    }
}
