import Foundation
import HTTPPipeline

extension TransportConformance.Check {
    /// Response fields come back in order, repeated names as separate fields, case kept.
    public static let responseFieldsInOrder = Self(
        "response.fields",
        "Response fields come back in order, a repeated name as separate fields, each name as the server wrote it.",
        requirement: "hand over every field line as it came, neither sorting, merging nor renaming them"
    ) { trial in
        let sent = [("X-B", "1"), ("x-a", "2"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("X-B", "3")]
        let server = try trial.server { $0.route("GET", "/fields", .init(headers: sent)) }
        let (response, _) = try await trial.transport().exchange(HTTPRequest(.get, "/fields", on: server))
        let names = Set(sent.map { $0.0.lowercased() })
        let seen = response.fields.filter { names.contains($0.name.canonicalName) }.map { ($0.name.rawName, $0.value) }
        try require(
            seen.count == sent.count && zip(seen, sent).allSatisfy { $0 == $1 },
            "the fields came back as \(seen.map { "\($0.0): \($0.1)" })")
    }

    /// A 1xx interim response is skipped.
    public static let interimResponsesSkipped = Self(
        "response.interim",
        "An interim 1xx response is skipped: the final response comes back, without the interim one's fields.",
        requirement: "read past every 1xx head but 101 and hand over the final one"
    ) { trial in
        let bytes = Data(
            ("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").utf8)
        let server = try trial.server { $0.route("GET", "/hints", .raw(bytes)) }
        let (response, body) = try await trial.transport().exchange(HTTPRequest(.get, "/hints", on: server))
        try require(response.status == 200, "the status was \(response.status)")
        try require(body == Data("ok".utf8), "the body was \(body.count) bytes")
        try require(response.fields["Link"] == nil, "the interim response's Link field came back")
    }

    /// HEAD, 204 and 304 have no body, and the connection goes on.
    public static let noBodyWhereNoneMayBe = Self(
        "response.noBody",
        "A response to HEAD, a 204 and a 304 come back without a body, and the next request works.",
        requirement:
            "read no body after a HEAD request or a 204 or 304 status, whatever Content-Length says (RFC 9110 §6.4.1)"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/resource", .init(body: Data("ten bytes!".utf8)))
            $0.route("GET", "/none", .init(status: 204))
            $0.route("GET", "/same", .init(status: 304, headers: [("ETag", #""v1""#)]))
            $0.route("GET", "/after", .init(body: Data("after".utf8)))
        }
        let transport = try trial.transport()
        for (method, path, status) in [(HTTPMethod.head, "/resource", 200), (.get, "/none", 204), (.get, "/same", 304)]
        {
            let (response, body) = try await transport.exchange(HTTPRequest(method, path, on: server))
            try require(response.status.code == status, "\(method) \(path) came back \(response.status)")
            try require(body.isEmpty, "\(method) \(path) came back with \(body.count) body bytes")
        }
        let (_, after) = try await transport.exchange(HTTPRequest(.get, "/after", on: server))
        try require(after == Data("after".utf8), "the next request's body was \(after.count) bytes")
    }

    /// A body without framing ends when the connection closes.
    public static let closeDelimitedBody = Self(
        "response.closeDelimited",
        "A body without Content-Length or chunked framing ends when the server closes the connection, and comes back whole.",
        requirement: "read a body without framing until the connection closes (RFC 9112 §6.3)"
    ) { trial in
        let bytes = Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello until close".utf8)
        let server = try trial.server { $0.route("GET", "/close", .raw(bytes)) }
        let (_, body) = try await trial.transport().exchange(HTTPRequest(.get, "/close", on: server))
        try require(body == Data("hello until close".utf8), "the body was \(String(decoding: body, as: UTF8.self))")
    }

    /// A transfer coding other than chunked, ended by close, comes back whole.
    public static let transferCodingEndedByClose = Self(
        "response.transferCoding",
        "A body with a transfer coding other than chunked is read until the connection closes and comes back whole, as sent or decoded.",
        requirement:
            "read such a body until close (RFC 9112 §6.3) and hand over its bytes as sent, or decoded when it knows the coding"
    ) { trial in
        let head = Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n".utf8)
        let server = try trial.server { $0.route("GET", "/coded", .raw(head + gzipHello)) }
        let (_, body) = try await trial.transport().exchange(HTTPRequest(.get, "/coded", on: server))
        try require(
            body == gzipHello || body == Data("hello, conformance".utf8),
            "the body was \(body.count) bytes, neither the \(gzipHello.count) sent nor the 18 they decode to")
    }

    /// Trailers are dropped.
    public static let trailersDropped = Self(
        "response.trailers",
        "The trailer fields of a chunked body are dropped, and the body comes back whole.",
        requirement: "read a chunked body's trailer section and drop it, never adding it to the head"
    ) { trial in
        let bytes = Data(
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n").utf8)
        let server = try trial.server { $0.route("GET", "/trailers", .raw(bytes)) }
        let (response, body) = try await trial.transport().exchange(HTTPRequest(.get, "/trailers", on: server))
        try require(body == Data("hello".utf8), "the body was \(body.count) bytes")
        try require(response.fields["X-Checksum"] == nil, "the trailer came back as a field")
    }

    /// A content coding comes back as sent, or decoded and marked.
    public static let contentCodingAsSentOrMarked = Self(
        "encoding.marked",
        "A gzip body comes back as sent, or decoded with the response marked decoded by the transport.",
        requirement:
            "hand over a Content-Encoding's bytes as they came, or decode them and set HTTPResponseHead.decodedByTransport, so that the pipeline's limits and verdicts apply either way"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/gzip", .init(headers: [("Content-Encoding", "gzip")], body: gzipHello))
        }
        let (response, body) = try await trial.transport().exchange(HTTPRequest(.get, "/gzip", on: server))
        if response.head.decodedByTransport {
            try require(body == Data("hello, conformance".utf8), "marked decoded, the body was \(body.count) bytes")
        } else {
            try require(body == gzipHello, "not marked decoded, the body was \(body.count) bytes, not the bytes sent")
        }
    }

    /// A 3xx comes back as it is.
    public static let redirectsReturned = Self(
        "below.redirects", "A redirect comes back as it is, not followed.",
        requirement: "return a 3xx as the response, leaving redirects to the pipeline's redirect layer"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/from", .init(status: 302, headers: [("Location", "/to")]))
            $0.route("GET", "/to", .init(body: Data("followed".utf8)))
        }
        let (response, _) = try await trial.transport().exchange(HTTPRequest(.get, "/from", on: server))
        try require(response.status == 302, "the response was \(response.status)")
        try require(server.requests.count == 1, "the server saw \(server.requests.map(\.path))")
    }

    /// A 401 comes back as it is.
    public static let challengesReturned = Self(
        "below.credentials", "A 401 challenge comes back as it is, answered with no credential of the transport's.",
        requirement: "send no Authorization of its own and answer no challenge, leaving credentials to the pipeline"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/private", .init(status: 401, headers: [("WWW-Authenticate", #"Basic realm="x""#)]))
        }
        let (response, _) = try await trial.transport().exchange(HTTPRequest(.get, "/private", on: server))
        try require(response.status == 401, "the response was \(response.status)")
        let seen = server.requests
        try require(
            seen.count == 1 && seen[0].header("Authorization") == nil,
            "the server saw \(seen.count) requests, the first with Authorization: \(seen.first?.header("Authorization") != nil)"
        )
    }

    /// Nothing is cached below the pipeline.
    public static let nothingCached = Self(
        "below.cache", "A cacheable response is not cached: the same request sent again reaches the server unchanged.",
        requirement: "keep no cache of its own, leaving caching to the pipeline"
    ) { trial in
        let server = try trial.server {
            $0.route(
                "GET", "/cacheable",
                .init(headers: [("Cache-Control", "max-age=3600"), ("ETag", #""v1""#)], body: Data("fresh".utf8)))
        }
        let transport = try trial.transport()
        for _ in 0..<2 { _ = try await transport.exchange(HTTPRequest(.get, "/cacheable", on: server)) }
        let seen = server.requests
        try require(seen.count == 2, "the server saw \(seen.count) requests of 2")
        try require(seen[1].header("If-None-Match") == nil, "the second request was made conditional")
    }

    /// No cookie is stored or sent below the pipeline.
    public static let noCookiesOfItsOwn = Self(
        "below.cookies", "A cookie the server sets is not sent back by the transport on its own.",
        requirement: "store and send no cookie unless its configuration asks, leaving cookies to the pipeline"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/set", .init(headers: [("Set-Cookie", "session=s3cr3t; Path=/")]))
        }
        let transport = try trial.transport()
        for path in ["/set", "/next"] { _ = try await transport.exchange(HTTPRequest(.get, path, on: server)) }
        let cookie = server.requests.last?.header("Cookie")
        try require(cookie == nil, "the next request carried a Cookie field")
    }
}

/// "hello, conformance" in gzip (made by Python's `gzip.compress` with `mtime=0`).
let gzipHello = Data([
    31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 72, 206, 207, 75, 203, 47, 202, 77, 204, 75, 78,
    5, 0, 249, 22, 76, 225, 18, 0, 0, 0,
])
