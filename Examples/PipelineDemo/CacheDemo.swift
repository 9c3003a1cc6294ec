import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineAuth
import HTTPPipelineCache
import HTTPPipelineHeaders
import HTTPPipelineStandard
import LibraryFeatures
import LibraryFixtures

/// The catalog screen visited twice through the standard stack with its HTTP cache (just inside
/// auth):
/// the library answers `Cache-Control: private, max-age=60`, so the second visit is served from
/// the cache without a round trip.
func showCatalogCache() async throws {
    struct MemberToken: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("member-token") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("member-token") }
    }
    let cache = CacheMiddleware()
    let library = try LibraryServer(delay: .milliseconds(100), cacheControl: "private, max-age=60") { transport in
        // The standard stack puts the cache just inside auth: it keys what it stores by the
        // credential each request carries.
        try StandardPipeline.build(
            over: transport,
            options: StandardOptions(
                headers: [.fixed("User-Agent", "pipeline-demo/1.0")], credentials: MemberToken(), cache: cache
            ).observedByDemo())
    }
    defer { library.stop() }

    heading("Catalog screen with the HTTP cache: the second visit costs no round trip")
    let clock = ContinuousClock()
    for visit in 1...2 {
        let catalog = CatalogService(client: library.client, authors: BatchAuthorDirectory(client: library.client))
        let before = library.requests.count
        let start = clock.now
        let books = try await browse(catalog, pages: 3)
        let elapsed = start.duration(to: clock.now)
        print(
            "   visit \(visit): 3 pages, \(books) books, \(library.requests.count - before) round trips, \(Int(elapsed.milliseconds)) ms"
        )
    }
}
