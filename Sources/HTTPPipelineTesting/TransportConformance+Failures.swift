import Foundation
import HTTPPipeline

extension TransportConformance.Check {
    /// A refused connection reads as nothing sent.
    public static let refusedConnectionNotSent = Self(
        "failure.refused", "A refused connection fails with an error that reads as transient and not sent.",
        requirement:
            "fail with an error HTTPFailureClass reads as notSent (URLError.cannotConnectToHost, or an HTTPTransientFailure whose mayHaveReachedServer is false), so that retry may send any request again"
    ) { trial in
        let closed = LoopbackServer()
        try closed.start()
        let port = closed.port
        closed.stop()
        guard let url = URL(string: "http://127.0.0.1:\(port)/refused") else { return }
        let (error, kind) = try classified(
            try await trial.transport().failure(
                of: HTTPRequest(method: .post, url: url, body: HTTPBody(Data("x".utf8)))),
            ifNone: "the request succeeded on a closed port")
        try require(kind == .notSent, "the error \(error) reads as \(kind)")
    }

    /// A connection closed before the answer reads as transient, maybe sent.
    public static let connectionLostAfterSending = Self(
        "failure.lostAfterSending",
        "A connection the server closes after reading the request, before any answer, fails with an error that reads as transient but maybe sent.",
        requirement:
            "fail with an error HTTPFailureClass reads as transient (not notSent: the server may have processed the request), so that retry sends only an idempotent request again"
    ) { trial in
        let server = try trial.server { $0.route("GET", "/drop", .raw(Data())) }
        let (error, kind) = try classified(
            try await trial.transport().failure(of: HTTPRequest(.get, "/drop", on: server)),
            ifNone: "the request succeeded")
        try require(kind == .transient, "the error \(error) reads as \(kind)")
    }

    /// A body cut short is an error, never short data.
    public static let bodyCutMidway = Self(
        "failure.cutMidBody",
        "A body cut short of its Content-Length fails with an error that reads as transient, never short data passed as success.",
        requirement:
            "throw from the body when the connection ends before Content-Length bytes came, with an error HTTPFailureClass reads as transient, so that retry repeats an idempotent request"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/cut", .init(body: .abort(after: 100, of: .bytes(Data(count: 1000)))))
        }
        let (error, kind) = try classified(
            try await trial.transport().failure(of: HTTPRequest(.get, "/cut", on: server)),
            ifNone: "the cut body came back as success")
        try require(kind == .transient, "the error \(error) reads as \(kind)")
    }

    /// An unterminated chunked body is an error, never short data.
    public static let chunkedBodyCutMidway = Self(
        "failure.cutChunked",
        "A chunked body cut before its last chunk fails with an error that reads as transient, never short data passed as success.",
        requirement:
            "throw from the body when the connection ends before the last chunk, with an error HTTPFailureClass reads as transient"
    ) { trial in
        let server = try trial.server {
            $0.route(
                "GET", "/cut", .init(body: .abort(after: 700, of: .chunked([Data(count: 500), Data(count: 500)]))))
        }
        let (error, kind) = try classified(
            try await trial.transport().failure(of: HTTPRequest(.get, "/cut", on: server)),
            ifNone: "the cut body came back as success")
        try require(kind == .transient, "the error \(error) reads as \(kind)")
    }

    /// A TLS failure is permanent.
    public static let tlsFailurePermanent = Self(
        "failure.tls",
        "A TLS handshake with a server that does not speak TLS fails with an error that reads as permanent.",
        requirement:
            "fail a TLS handshake with an error HTTPFailureClass reads as permanent, so that no retry repeats it"
    ) { trial in
        let server = try trial.server()
        guard let url = URL(string: "https://127.0.0.1:\(server.port)/tls") else { return }
        let (error, kind) = try classified(
            try await trial.transport().failure(of: HTTPRequest(url: url)),
            ifNone: "the request succeeded over plain HTTP")
        try require(kind == .permanent, "the error \(error) reads as \(kind)")
    }
}
