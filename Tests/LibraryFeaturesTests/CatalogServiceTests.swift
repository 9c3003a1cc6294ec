import HTTPPipelineTesting
import LibraryFeatures
import LibraryFixtures
import Testing

@Suite("LibraryFeatures: catalog and author cache")
struct CatalogServiceTests {
    /// Loads three pages, following the cursors; returns the pages.
    func scrollThreePages(_ catalog: CatalogService) async throws -> [CatalogPage] {
        var pages: [CatalogPage] = []
        var cursor: String?
        for _ in 0..<3 {
            let page = try await catalog.page(after: cursor)
            pages.append(page)
            cursor = page.nextCursor
        }
        return pages
    }

    @Test("Pages hold 20 books with author names and chain by cursor to the end")
    func pagesChainByCursor() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        let pages = try await scrollThreePages(CatalogService(client: library.client))
        #expect(pages.map(\.books.count) == [20, 20, 20])
        #expect(pages.flatMap(\.books).map(\.id) == Array(LibraryCatalogue.bookIDs))
        #expect(pages.map(\.nextCursor) == ["20", "40", nil])
        let book = try #require(pages.last?.books.last)
        #expect(book == CatalogBook(id: 60, title: "Book 60", authorName: "Toni Morrison"))
        // Uncached, authors shared between pages are asked for again: 7, 14 and 1...5.
        let ids = library.requestedAuthorIDs
        #expect(ids.count > Set(ids).count)
        #expect(library.requests.filter { $0.path == "/authors" }.count == 3)
    }

    @Test("Scrolling three pages through the cache asks for each author at most once")
    func cacheAsksForEachAuthorOnce() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        let clock = ManualClock()
        let authors = CachingAuthorDirectory(wrapping: BatchAuthorDirectory(client: library.client), clock: clock)
        let pages = try await scrollThreePages(CatalogService(client: library.client, authors: authors))

        let expected = LibraryCatalogue.bookIDs.map {
            LibraryCatalogue.authorName(LibraryCatalogue.authorID(ofBook: $0))
        }
        #expect(pages.flatMap(\.books).map(\.authorName) == expected)
        let ids = library.requestedAuthorIDs
        #expect(ids.count == Set(ids).count)
        #expect(Set(ids) == Set(LibraryCatalogue.authorIDs))
        // Page 1 asks for 1...7, page 2 only for the new 8...14, page 3 only for 15.
        let batches = library.requests.filter { $0.path == "/authors" }
            .map { LibraryCatalogue.parse($0.query)["ids"] ?? "" }
        #expect(batches == ["1,2,3,4,5,6,7", "8,9,10,11,12,13,14", "15"])
    }

    @Test("Cached names expire ten minutes after they were fetched")
    func cachedNamesExpireAfterTenMinutes() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        let clock = ManualClock()
        let authors = CachingAuthorDirectory(wrapping: BatchAuthorDirectory(client: library.client), clock: clock)
        let catalog = CatalogService(client: library.client, authors: authors)

        _ = try await catalog.page(after: nil)
        #expect(library.requestedAuthorIDs == Array(1...7))

        clock.advance(by: .seconds(599))
        _ = try await catalog.page(after: nil)
        #expect(library.requestedAuthorIDs == Array(1...7), "still fresh just before ten minutes")

        clock.advance(by: .seconds(1))
        let page = try await catalog.page(after: nil)
        #expect(library.requestedAuthorIDs == Array(1...7) + Array(1...7), "asked again after ten minutes")
        #expect(page.books.first?.authorName == "Ursula K. Le Guin")
    }
}
