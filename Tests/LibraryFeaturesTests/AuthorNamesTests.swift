import HTTPPipelineTesting
import LibraryFeatures
import LibraryFixtures
import Testing

@Suite("LibraryFeatures: N+1 author names")
struct AuthorNamesTests {
    /// The author names of books 1...20, in book order.
    let expected = (1...20).map { LibraryCatalogue.authorName(LibraryCatalogue.authorID(ofBook: $0)) }

    @Test("Sequential lookup asks once for the page and once per book")
    func sequentialAsksOncePerBook() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        let names = try await AuthorNames(client: library.client).sequential(limit: 20)
        #expect(names == expected)
        let paths = library.requests.map(\.path)
        #expect(paths.count == 21)
        #expect(paths.first == "/books")
        #expect(paths.filter { $0.hasPrefix("/authors/") }.count == 20)
        // One after another: each author request arrives at least one delay after the previous.
        let arrivals = library.requests.map(\.receivedAt)
        for (previous, next) in zip(arrivals, arrivals.dropFirst()) {
            #expect(previous.duration(to: next) >= library.delay)
        }
    }

    @Test("Concurrent lookup asks once per book, all at once, and keeps book order")
    func concurrentAsksOncePerBookAtOnce() async throws {
        let library = try LibraryServer(delay: .milliseconds(20), connectionsPerHost: 20)
        defer { library.stop() }
        let names = try await AuthorNames(client: library.client).concurrent(limit: 20)
        #expect(names == expected)
        let paths = library.requests.map(\.path)
        #expect(paths.count == 21)
        #expect(paths.filter { $0.hasPrefix("/authors/") }.count == 20)
        #expect(library.requestedAuthorIDs.sorted() == (1...20).map(LibraryCatalogue.authorID(ofBook:)).sorted())
    }

    @Test("Batched lookup asks once for the page and once for all distinct authors")
    func batchedAsksOnce() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        let names = try await AuthorNames(client: library.client).batched(limit: 20)
        #expect(names == expected)
        #expect(library.requests.map(\.path) == ["/books", "/authors"])
        #expect(library.requestedAuthorIDs == Array(1...7))
    }
}
