package import HTTPPipelineAPI

/// Resolves author identifiers to display names, many at a time.
package protocol AuthorDirectory: Sendable {
    /// The names of some authors.
    ///
    /// - Parameter ids: The authors' identifiers; duplicates are allowed.
    /// - Returns: The name of each author found, by identifier.
    /// - Throws: ``FeatureError``, or `CancellationError` when cancelled.
    func names(for ids: [Int]) async throws -> [Int: String]
}

/// An ``AuthorDirectory`` that asks the batch endpoint `GET /authors?ids=…` once per call, for
/// the distinct identifiers in ascending order, and nothing when there are none.
package struct BatchAuthorDirectory: AuthorDirectory {
    /// The client the requests go through.
    package let client: APIClient

    /// Creates the directory.
    ///
    /// - Parameter client: The client the requests go through.
    package init(client: APIClient) {
        self.client = client
    }

    /// The names of some authors, from one batch request.
    ///
    /// - Parameter ids: The authors' identifiers; duplicates are sent once.
    /// - Returns: The name of each author the server knows, by identifier.
    /// - Throws: ``FeatureError``, or `CancellationError` when cancelled.
    package func names(for ids: [Int]) async throws -> [Int: String] {
        let distinct = Set(ids).sorted()
        guard !distinct.isEmpty else { return [:] }
        let client = self.client
        return try await FeatureError.translating {
            let authors = try await client.send(LibraryAPI.authors(ids: distinct)).authors
            return Dictionary(authors.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// An ``AuthorDirectory`` that remembers names for a while, so that pages sharing authors ask
/// the underlying directory for each author once.
///
/// Entries expire ``timeToLive`` after they were fetched, measured on the injected clock (a
/// `ManualClock` in tests). Only the identifiers missing or expired are passed on, in one call.
/// Two overlapping calls that miss the same author may both fetch it: the cache does not join
/// requests in flight.
///
/// ```swift
/// let authors = CachingAuthorDirectory(wrapping: BatchAuthorDirectory(client: client),
///                                      clock: ContinuousClock())
/// let catalog = CatalogService(client: client, authors: authors)
/// ```
package actor CachingAuthorDirectory: AuthorDirectory {
    private struct Entry {
        let name: String
        let fetchedAt: Duration
    }

    /// The directory asked on a miss.
    package nonisolated let base: any AuthorDirectory
    /// How long a name is kept; ten minutes by default.
    package nonisolated let timeToLive: Duration
    private let elapsed: @Sendable () -> Duration
    private var entries: [Int: Entry] = [:]

    /// Creates a cache in front of another directory.
    ///
    /// - Parameters:
    ///   - base: The directory asked on a miss.
    ///   - timeToLive: How long a name is kept; ten minutes by default.
    ///   - clock: The clock expiry is measured on.
    package init(wrapping base: any AuthorDirectory, timeToLive: Duration = .seconds(600), clock: any Clock<Duration>) {
        self.base = base
        self.timeToLive = timeToLive
        self.elapsed = Self.stopwatch(on: clock)
    }

    /// A function returning the time elapsed on `clock` since this call.
    private static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// The names of some authors: fresh cached names, plus one call to ``base`` for the rest.
    ///
    /// - Parameter ids: The authors' identifiers; duplicates are allowed.
    /// - Returns: The name of each author found, by identifier.
    /// - Throws: What ``base`` throws.
    package func names(for ids: [Int]) async throws -> [Int: String] {
        let now = elapsed()
        var result: [Int: String] = [:]
        var missing: [Int] = []
        for id in Set(ids).sorted() {
            if let entry = entries[id], now - entry.fetchedAt < timeToLive {
                result[id] = entry.name
            } else {
                missing.append(id)
            }
        }
        guard !missing.isEmpty else { return result }
        let fetched = try await base.names(for: missing)
        let fetchedAt = elapsed()
        for (id, name) in fetched {
            entries[id] = Entry(name: name, fetchedAt: fetchedAt)
            result[id] = name
        }
        return result
    }
}
