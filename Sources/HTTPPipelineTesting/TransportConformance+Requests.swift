import Foundation
import HTTPPipeline

extension TransportConformance.Check {
    /// Every method, custom ones too, reaches the server as written.
    public static let methodsAsWritten = Self(
        "request.methods", "Every method reaches the server as written, custom ones too.",
        requirement: "send the method's exact text, whatever it is"
    ) { trial in
        let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PURGE"]
        let server = try trial.server()
        let transport = try trial.transport()
        for method in methods {
            _ = try await transport.exchange(HTTPRequest(HTTPMethod(rawValue: method), "/method", on: server))
        }
        let seen = server.requests.map(\.method)
        try require(seen == methods, "the server saw \(seen)")
    }

    /// The request target arrives byte for byte.
    public static let targetByteForByte = Self(
        "request.target",
        "The request target reaches the server byte for byte: percent-encoding, path parameters, an empty query.",
        requirement: "send the URL's path and query exactly as written, neither decoding nor re-encoding them"
    ) { trial in
        let targets = ["/a%2Fb/%7Euser/x%20y", "/p;v=1/q;w=2", "/search?q=a%20b&r=+&s=%2B", "/empty?"]
        let server = try trial.server()
        let transport = try trial.transport()
        for target in targets {
            _ = try await transport.exchange(HTTPRequest(.get, target, on: server))
        }
        let seen = server.requests.map(\.target)
        try require(seen == targets, "the server saw \(seen)")
    }

    /// Request fields arrive in order, a repeated name on separate lines.
    public static let requestFieldsInOrder = Self(
        "request.fields",
        "Request fields reach the server in order, a repeated name as separate lines.",
        requirement: "send each field as a line of its own, in the request's order"
    ) { trial in
        let server = try trial.server()
        let fields = HTTPFields([
            HTTPField(name: "X-First", value: "1"), HTTPField(name: "X-Second", value: "2"),
            HTTPField(name: "X-First", value: "3"),
        ])
        _ = try await trial.transport().exchange(HTTPRequest(.get, "/fields", on: server, fields: fields))
        let seen =
            server.requests.first?.headers.filter { ["x-first", "x-second"].contains($0.name.lowercased()) } ?? []
        let expected = [("X-First", "1"), ("X-Second", "2"), ("X-First", "3")]
        try require(
            seen.count == expected.count
                && zip(seen, expected).allSatisfy { $0.name.lowercased() == $1.0.lowercased() && $0.value == $1.1 },
            "the server saw \(seen.map { "\($0.name): \($0.value)" })")
    }

    /// A transport adds no field of its own but `Host`.
    public static let noAddedRequestFields = Self(
        "request.noAddedFields",
        "A request without a body reaches the server with its own fields and Host, nothing else.",
        requirement:
            "add no field beyond Host and the body's framing: no Accept, Accept-Encoding, Accept-Language, User-Agent or Connection of its own"
    ) { trial in
        let server = try trial.server()
        let fields = HTTPFields([HTTPField(name: "X-Only", value: "1")])
        _ = try await trial.transport().exchange(HTTPRequest(.get, "/plain", on: server, fields: fields))
        let added = (server.requests.first?.headers ?? []).map(\.name).filter {
            !["host", "x-only"].contains($0.lowercased())
        }
        try require(added.isEmpty, "the transport added \(added)")
    }

    /// Bodies arrive whole, however they are given.
    public static let requestBodies = Self(
        "request.bodies",
        "Request bodies reach the server whole: empty, of known size, and streamed with or without a length.",
        requirement:
            "send a buffered body with its Content-Length, a stream of known length with it, and a stream of unknown length chunked"
    ) { trial in
        let server = try trial.server()
        let transport = try trial.transport()
        let sized = Data((0..<(100 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let parts = [Data("first part, ".utf8), Data("second part, ".utf8), Data("last part".utf8)]
        let whole = parts.reduce(Data(), +)
        let bodies: [(String, HTTPBody, Data)] = [
            ("/empty", HTTPBody(Data()), Data()),
            ("/sized", HTTPBody(sized), sized),
            ("/stream", HTTPBody(stream: Chunks(parts)), whole),
            ("/stream-with-length", HTTPBody(stream: Chunks(parts), length: whole.count), whole),
        ]
        for (path, body, _) in bodies {
            _ = try await transport.exchange(HTTPRequest(.post, path, on: server, body: body))
        }
        let seen = server.requests
        try require(seen.count == bodies.count, "the server saw \(seen.count) requests of \(bodies.count)")
        for (request, (path, _, expected)) in zip(seen, bodies) {
            try require(
                request.body == expected, "\(path) arrived with \(request.body.count) bytes of \(expected.count)")
        }
        try require(
            seen[0].header("Content-Length") == "0",
            "an empty body came with Content-Length \(seen[0].header("Content-Length") ?? "none")")
    }
}

/// A request body's chunks, one after another.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = Data
    let parts: [Data]

    init(_ parts: [Data]) { self.parts = parts }

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<Data>
        mutating func next() async -> Data? { rest.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: parts[...]) }
}
