package import HTTPPipelineAPI

/// The N+1 problem in three strategies: the author names of the first page of books.
///
/// Each strategy requests `GET /books?limit=N` (one request), then resolves every book's author:
///
/// | strategy | author requests | round trips (W = server latency) |
/// | --- | --- | --- |
/// | ``sequential(limit:)`` | N, one after another | (N + 1) W |
/// | ``concurrent(limit:)`` | N, at once (a task group) | W + ⌈N / L⌉ W, L = connections per host |
/// | ``batched(limit:)`` | 1 (`GET /authors?ids=…`, distinct ids) | 2 W |
///
/// All three return the same names, in book order.
package struct AuthorNames: Sendable {
    /// The client the requests go through.
    package let client: APIClient

    /// Creates the service.
    ///
    /// - Parameter client: The client the requests go through.
    package init(client: APIClient) {
        self.client = client
    }

    /// One request per book, each after the previous one answered.
    ///
    /// - Parameter limit: How many books; 20 by default.
    /// - Returns: The author name of each book, in book order.
    /// - Throws: ``FeatureError``, or `CancellationError` when cancelled.
    package func sequential(limit: Int = 20) async throws -> [String] {
        let client = self.client
        return try await FeatureError.translating {
            let books = try await client.send(LibraryAPI.books(cursor: nil, limit: limit)).books
            var names: [String] = []
            names.reserveCapacity(books.count)
            for book in books {
                names.append(try await client.send(LibraryAPI.author(id: book.authorID)).name)
            }
            return names
        }
    }

    /// One request per book, all at once in a task group; a failure cancels the rest.
    ///
    /// - Parameter limit: How many books; 20 by default.
    /// - Returns: The author name of each book, in book order.
    /// - Throws: ``FeatureError``, or `CancellationError` when cancelled.
    package func concurrent(limit: Int = 20) async throws -> [String] {
        let client = self.client
        return try await FeatureError.translating {
            let books = try await client.send(LibraryAPI.books(cursor: nil, limit: limit)).books
            return try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (index, book) in books.enumerated() {
                    group.addTask { (index, try await client.send(LibraryAPI.author(id: book.authorID)).name) }
                }
                var names = [String](repeating: "", count: books.count)
                for try await (index, name) in group {
                    names[index] = name
                }
                return names
            }
        }
    }

    /// One batch request for the distinct authors of the page.
    ///
    /// - Parameter limit: How many books; 20 by default.
    /// - Returns: The author name of each book, in book order.
    /// - Throws: ``FeatureError`` (``FeatureError/failed`` when the batch leaves an author out),
    ///   or `CancellationError` when cancelled.
    package func batched(limit: Int = 20) async throws -> [String] {
        let client = self.client
        return try await FeatureError.translating {
            let books = try await client.send(LibraryAPI.books(cursor: nil, limit: limit)).books
            let names = try await BatchAuthorDirectory(client: client).names(for: books.map(\.authorID))
            return try books.map { book throws(FeatureError) in
                guard let name = names[book.authorID] else { throw .failed }
                return name
            }
        }
    }
}
