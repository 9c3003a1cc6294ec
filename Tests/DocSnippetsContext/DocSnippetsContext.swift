// The names the documentation's code blocks use as context without declaring them: "your token
// store", "your log sink", "a pipeline", "a middleware of yours". Scripts/extract-snippets.py
// imports this module into every generated file except a standalone block's (the README's quick
// start), so a block can stay about what it shows. A block that declares one of these names
// itself uses its own (a declaration of the test target shadows an imported one).
//
// Keep it small: add a name only when spelling it out in every block that uses it would hide
// what the block is about. Values are placeholders; the blocks that use them are compiled, and
// only the `@Test` functions the documents show are run.
package import Foundation
package import HTTPPipeline
package import HTTPPipelineAPI
package import HTTPPipelineAuth
package import HTTPPipelineLogging
package import HTTPPipelineTesting

// MARK: - Values

/// "Your `CredentialSource`": the token storage and token endpoint of the app.
package let tokenStore = ExampleTokenStore()
/// "Your log sink".
package let sink = StandardErrorLogSink()
/// "A transport": in a test, a scripted one.
package let transport = ScriptedTransport([.ok("{}")])
/// "A request".
package let request = HTTPRequest(url: apiRoot.appending(path: "books"))
/// "A pipeline".
package let pipeline = Pipeline(transport: transport) { RequestStamp() }
/// "The API client" of the API layer's documents.
package let client = APIClient(baseURL: apiRoot, transport: pipeline)
/// The root every example URL is under.
package let apiRoot = URL(filePath: "/").appending(path: "v2")
/// An example book's identifier.
package let id = 42
/// An example loan's identifier.
package let loanID = "loan-7"
/// A secret that must never reach a log.
package let secretToken = "s3cr3t-t0ken"
/// Whether the app runs with verbose logging.
package let verbose = false
/// Header names configured at run time.
package let extraHeaders = ["X-Tenant"]
/// Middleware assembled from configuration at run time.
package let pluginsFromConfiguration: [any HTTPMiddleware] = [TimingLog()]
/// A cache that may or may not be configured.
package let optionalCache: ResponseCache? = nil
/// An order to place.
package let newOrder = NewOrder(bookID: 42)
/// The session a sign-in returned.
package let signedIn = SignedInSession(accessToken: "access-1")
/// The app's own logger.
package let myLogger = AppLogger()

// MARK: - Types

/// The landing page's `RequestID` (HTTPPipeline.docc/HTTPPipeline.md), which the "Testing a
/// pipeline" article uses by name: stamps `X-Request-ID` on a request that lacks one.
package struct RequestID: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard request.fields["X-Request-ID"] == nil else { return try await next(request) }
        var request = request
        request.fields["X-Request-ID"] = UUID().uuidString
        return try await next(request)
    }
}

/// A middleware of the reader's: stamps a request ID (HTTPMiddleware's own example).
package struct RequestStamp: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        request.fields["X-Request-ID"] = UUID().uuidString
        return try await next(request)
    }
}

/// A middleware of the reader's that measures what runs inside it.
package struct TimingLog: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await next(request)
    }
}

/// A middleware of the reader's that sets one header.
package struct HeaderStamp: HTTPMiddleware {
    package let name: String

    package init(name: String) { self.name = name }

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        request.fields[name] = "on"
        return try await next(request)
    }
}

/// A middleware of the reader's that answers from a cache.
package struct ResponseCache: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await next(request)
    }
}

/// "Your middleware", in the test kit's examples.
package typealias MyMiddleware = TimingLog

/// "Your retrying middleware", in the test kit's examples: sends again once after a 503.
package struct MyRetry: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let first = try await next(request)
        return first.status == 503 ? try await next(request) : first
    }
}

/// The token storage of the app.
package struct ExampleTokenStore: CredentialSource {
    package func currentCredential() async throws -> Credential? { .bearer("access-1") }

    package func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("access-2") }
}

/// A book, as the API layer's examples decode it.
package struct Book: Decodable, Sendable {
    package var id: Int
    package var title: String
}

/// What placing an order returns.
package struct Receipt: Decodable, Sendable {
    package var orderID: String
}

/// An order to place.
package struct NewOrder: Encodable, Sendable {
    package var bookID: Int
}

/// What a sign-in returned.
package struct SignedInSession: Sendable {
    package var accessToken: String
}

/// The app's logger.
package struct AppLogger: Sendable {
    package func info(_ message: String) {}
}
