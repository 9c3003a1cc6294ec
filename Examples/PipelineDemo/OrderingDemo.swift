import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The standard stack's order and its (empty) diagnostics, then a mis-ordered stack's.
func showOrdering(server: LoopbackServer, transport: URLSessionTransport) throws {
    struct NoTokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("demo") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("demo") }
    }
    let standard = try StandardPipeline.build(
        over: transport,
        options: StandardOptions(
            headers: [.fixed("User-Agent", "pipeline-demo/1.0")],
            credentials: NoTokens(),
            logging: .init(level: .basic, sink: InMemoryLogSink())
        ).observedByDemo())
    heading("Ordering: the standard stack, and a mis-ordered one")
    print("   \(standard)")
    print("   diagnostics: \(standard.orderingDiagnostics.isEmpty ? "none" : "\(standard.orderingDiagnostics.count)")")

    let misordered = Pipeline(transport: transport) {
        LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
        AuthMiddleware(source: NoTokens())
        RetryMiddleware(policy: .default)
        GzipMiddleware()
    }
    print("   \(misordered)")
    for diagnostic in misordered.orderingDiagnostics {
        print("   ! \(diagnostic)")
    }
}
