package import HTTPPipelineAPI

/// One book of a catalogue page, with its author's name resolved.
package struct CatalogBook: Sendable, Hashable {
    /// The book's identifier.
    package var id: Int
    /// The book's title.
    package var title: String
    /// The author's display name.
    package var authorName: String

    /// Creates a catalogue entry.
    ///
    /// - Parameters:
    ///   - id: The book's identifier.
    ///   - title: The book's title.
    ///   - authorName: The author's display name.
    package init(id: Int, title: String, authorName: String) {
        self.id = id
        self.title = title
        self.authorName = authorName
    }
}

/// One page of the catalogue.
package struct CatalogPage: Sendable, Hashable {
    /// The books, in catalogue order.
    package var books: [CatalogBook]
    /// Pass it to ``CatalogService/page(after:)`` for the next page; `nil` on the last page.
    package var nextCursor: String?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - books: The books, in catalogue order.
    ///   - nextCursor: The next page's cursor, `nil` on the last page.
    package init(books: [CatalogBook], nextCursor: String?) {
        self.books = books
        self.nextCursor = nextCursor
    }
}

/// Pages through the catalogue: each page is `GET /books?cursor=…&limit=…` followed by one
/// author lookup for the page's distinct authors.
///
/// Put a ``CachingAuthorDirectory`` in front of the lookup so that scrolling asks for each
/// author once:
///
/// ```swift
/// let authors = CachingAuthorDirectory(wrapping: BatchAuthorDirectory(client: client), clock: ContinuousClock())
/// let catalog = CatalogService(client: client, authors: authors)
/// var page = try await catalog.page(after: nil)
/// if let next = page.nextCursor { page = try await catalog.page(after: next) }
/// ```
package struct CatalogService: Sendable {
    /// The client the book pages go through.
    package let client: APIClient
    /// Where author names come from.
    package let authors: any AuthorDirectory
    /// The most books on a page.
    package let pageSize: Int

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - client: The client the book pages go through.
    ///   - authors: Where author names come from; the batch endpoint, uncached, by default.
    ///   - pageSize: The most books on a page; 20 by default.
    package init(client: APIClient, authors: (any AuthorDirectory)? = nil, pageSize: Int = 20) {
        self.client = client
        self.authors = authors ?? BatchAuthorDirectory(client: client)
        self.pageSize = pageSize
    }

    /// One page of books with their authors' names.
    ///
    /// - Parameter cursor: A previous page's ``CatalogPage/nextCursor``; `nil` for the first page.
    /// - Returns: The page.
    /// - Throws: ``FeatureError`` (``FeatureError/failed`` when an author cannot be resolved),
    ///   or `CancellationError` when cancelled.
    package func page(after cursor: String?) async throws -> CatalogPage {
        let client = self.client
        let authors = self.authors
        let pageSize = self.pageSize
        return try await FeatureError.translating {
            let page = try await client.send(LibraryAPI.books(cursor: cursor, limit: pageSize))
            let names = try await authors.names(for: page.books.map(\.authorID))
            let books = try page.books.map { book throws(FeatureError) in
                guard let name = names[book.authorID] else { throw .failed }
                return CatalogBook(id: book.id, title: book.title, authorName: name)
            }
            return CatalogPage(books: books, nextCursor: page.nextCursor)
        }
    }
}
