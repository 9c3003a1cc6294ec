import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineTesting
import Testing

/// Where the cache declares it belongs: inside auth.
@Suite struct CachePlacementTests {
    struct AuthLike: HTTPMiddleware, PlacementDeclaring {
        var roles: Set<MiddlewareRole> { [.auth] }
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    @Test func aCacheListedOutsideAuthIsReportedAndOneInsideIsNot() {
        let transport = ScriptedTransport { _ in .ok() }
        let outside = Pipeline(transport: transport) {
            CacheMiddleware()
            AuthLike()
        }
        let inside = Pipeline(transport: transport) {
            AuthLike()
            CacheMiddleware()
        }

        #expect(outside.orderingDiagnostics.count == 1)
        #expect(outside.orderingDiagnostics.first.map { "\($0)".contains("one user's private responses") } == true)
        #expect(inside.orderingDiagnostics.isEmpty)
    }
}
