import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineAuth
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineStandard
import HTTPPipelineTesting
import LibraryFeatures
import LibraryFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The library scenario through the whole plugin stack over `URLSessionTransport`: the book
/// detail in two round trips, then the N+1 list three ways, next to the predicted times.
func showLibrary() async throws {
    struct MemberToken: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("member-token") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("member-token") }
    }
    let sink = InMemoryLogSink()
    let connections = 6
    let library = try LibraryServer(delay: .milliseconds(100), connectionsPerHost: connections) { transport in
        try StandardPipeline.build(
            over: transport,
            options: StandardOptions(
                headers: [.fixed("User-Agent", "pipeline-demo/1.0")],
                credentials: MemberToken(),
                logging: .init(level: .basic, sink: sink)
            ).observedByDemo())
    }
    defer { library.stop() }
    let wait = library.delay.milliseconds

    heading("Library: a book's detail screen, through the standard stack (100 ms per route)")
    let clock = ContinuousClock()
    var start = clock.now
    let detail = try await BookDetailService(client: library.client).detail(for: 10)
    let detailTime = start.duration(to: clock.now).milliseconds
    print("   \(detail.title) by \(detail.authorName), \(detail.availability), on loan to me: \(detail.isOnLoanToMe)")
    let arrivals = library.requests
    if let first = arrivals.first?.receivedAt {
        for request in arrivals {
            print(
                String(
                    format: "   +%4.0f ms  %@ %@", first.duration(to: request.receivedAt).milliseconds, request.method,
                    request.path))
        }
    }
    print(String(format: "   %d requests in %.0f ms: two round trips, not four", arrivals.count, detailTime))

    let names = AuthorNames(client: library.client)
    var rows: [(String, Int, Double)] = []
    for (label, run) in [
        ("sequential", { try await names.sequential() }),
        ("concurrent", { try await names.concurrent() }),
        ("batched", { try await names.batched() }),
    ] as [(String, () async throws -> [String])] {
        let before = library.requests.count
        start = clock.now
        _ = try await run()
        rows.append((label, library.requests.count - before, start.duration(to: clock.now).milliseconds))
    }
    // The session's real concurrency limit: author requests of the concurrent run that arrived
    // together, within half a route delay of the first.
    let concurrentAuthors = library.requests.filter { $0.path.hasPrefix("/authors/") }.suffix(20)
    let limit =
        concurrentAuthors.first.map { first in
            concurrentAuthors.filter { first.receivedAt.duration(to: $0.receivedAt).milliseconds < wait / 2 }.count
        } ?? connections
    let n = 20.0
    let predicted = [(n + 1) * wait, wait + (n / Double(max(limit, 1))).rounded(.up) * wait, 2 * wait]
    print("\n   N+1: 20 books' author names (W = \(Int(wait)) ms, measured concurrency limit L = \(limit))")
    print("   strategy     requests   measured   predicted")
    for (index, row) in rows.enumerated() {
        let label = row.0.padding(toLength: 12, withPad: " ", startingAt: 0)
        print("   " + label + String(format: " %8d   %6.0f ms  %6.0f ms", row.1, row.2, predicted[index]))
    }
    print("   T_seq = (N+1)W, T_conc ≈ W + ⌈N/L⌉W, T_batch = 2W")

    // The catalog: three pages whose books share authors, with and without the author cache.
    for cached in [false, true] {
        let batch = BatchAuthorDirectory(client: library.client)
        let authors: any AuthorDirectory =
            cached ? CachingAuthorDirectory(wrapping: batch, clock: ContinuousClock()) : batch
        let catalog = CatalogService(client: library.client, authors: authors)
        let before = library.requestedAuthorIDs.count
        let books = try await browse(catalog, pages: 3)
        let asked = library.requestedAuthorIDs.dropFirst(before)
        print(
            "   catalog, 3 pages (\(books) books) \(cached ? "with" : "without") the author cache: \(asked.count) author lookups for \(Set(asked).count) distinct authors"
        )
    }
    print(
        "   every exchange above went through the standard stack and was logged, redacted: \(sink.records.count) records"
    )
}

/// Reads the catalogue's first `pages` pages, as a user scrolling would; returns the books seen.
func browse(_ catalog: CatalogService, pages: Int) async throws -> Int {
    var cursor: String?
    var books = 0
    for _ in 0..<pages {
        let page = try await catalog.page(after: cursor)
        books += page.books.count
        cursor = page.nextCursor
    }
    return books
}
