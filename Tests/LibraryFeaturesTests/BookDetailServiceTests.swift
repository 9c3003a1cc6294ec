import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import LibraryFeatures
import LibraryFixtures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("LibraryFeatures: book detail service")
struct BookDetailServiceTests {
    @Test("A book on loan to me is composed from its book, availability, loans and author")
    func composesTheDetailOfABookOnLoanToMe() async throws {
        let service = BookDetailService(client: try libraryClient(scriptedLibrary()))
        let detail = try await service.detail(for: 4)
        let due = try Date(LibraryCatalogue.loanDue, strategy: .iso8601)
        #expect(
            detail
                == BookDetail(
                    id: 4, title: "Book 4", authorName: "Octavia E. Butler",
                    availability: .onLoan(until: due), isOnLoanToMe: true
                )
        )
    }

    @Test("An available book not on loan to me says so")
    func composesAnAvailableBook() async throws {
        let service = BookDetailService(client: try libraryClient(scriptedLibrary()))
        let detail = try await service.detail(for: 3)
        #expect(detail.availability == .available)
        #expect(detail.isOnLoanToMe == false)
        #expect(detail.authorName == "Ursula K. Le Guin")
        #expect(try await service.detail(for: 5).availability == .unavailable)
    }

    @Test("Four requests take two round trips: three together, then the author after the book")
    func takesTwoRoundTrips() async throws {
        let library = try LibraryServer(delay: .milliseconds(200))
        defer { library.stop() }
        let detail = try await BookDetailService(client: library.client).detail(for: 10)
        #expect(detail.title == "Book 10")

        let requests = library.requests
        #expect(requests.count == 4)
        let first = requests.filter { $0.path != "/authors/4" }
        let author = try #require(requests.first { $0.path == "/authors/4" })
        let book = try #require(requests.first { $0.path == "/books/10" })
        #expect(Set(first.map(\.path)) == ["/books/10", "/books/10/availability", "/me/loans"])
        let arrivals = first.map(\.receivedAt)
        let earliest = try #require(arrivals.min())
        let latest = try #require(arrivals.max())
        // Round trip 1: the three independent requests arrive together, before any of them could
        // have been answered (a request sent after an answer would arrive a whole delay later).
        #expect(earliest.duration(to: latest) < library.delay)
        // Round trip 2: the author is asked only once the book has answered.
        #expect(book.receivedAt.duration(to: author.receivedAt) >= library.delay)
        #expect(requests.last?.path == "/authors/4")
    }

    @Test("A missing book on a real server is not found")
    func missingBookOnTheServerIsNotFound() async throws {
        let library = try LibraryServer(delay: .milliseconds(20))
        defer { library.stop() }
        await #expect(throws: FeatureError.notFound) {
            try await BookDetailService(client: library.client).detail(for: 999)
        }
    }

    @Test(
        "Statuses map to the errors a screen acts on",
        arguments: [
            (404, FeatureError.notFound), (429, .unavailable), (502, .unavailable), (503, .unavailable),
            (504, .unavailable), (500, .failed), (400, .failed), (403, .failed),
        ]
    )
    func mapsStatuses(status: Int, expected: FeatureError) async throws {
        let transport = scriptedLibrary(overriding: ["/books/7/availability": .status(status)])
        await #expect(throws: expected) {
            try await BookDetailService(client: try libraryClient(transport)).detail(for: 7)
        }
    }

    @Test("A transport failure makes the service unavailable")
    func transportFailureIsUnavailable() async throws {
        let transport = scriptedLibrary(overriding: ["/me/loans": .failure(URLError(.cannotConnectToHost))])
        await #expect(throws: FeatureError.unavailable) {
            try await BookDetailService(client: try libraryClient(transport)).detail(for: 7)
        }
    }

    @Test("A reply longer than the client's body limit fails")
    func oversizedReplyFails() async throws {
        let base = try #require(URL(string: "https://library.example"))
        let client = APIClient(baseURL: base, transport: scriptedLibrary(), responseBodyLimit: 16)
        await #expect(throws: FeatureError.failed) {
            try await BookDetailService(client: client).detail(for: 7)
        }
    }

    @Test("An undecodable reply or an unknown availability fails")
    func undecodableReplyFails() async throws {
        let garbled = scriptedLibrary(overriding: ["/authors/3": .ok(#"{"id":3}"#)])
        await #expect(throws: FeatureError.failed) {
            try await BookDetailService(client: try libraryClient(garbled)).detail(for: 7)
        }
        let unknown = scriptedLibrary(overriding: ["/books/7/availability": .ok(#"{"status":"lost"}"#)])
        await #expect(throws: FeatureError.failed) {
            try await BookDetailService(client: try libraryClient(unknown)).detail(for: 7)
        }
    }

    @Test("A failing request cancels its siblings still in flight")
    func failureCancelsSiblings() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let slowRequestWasCancelled = Locked(false)
        let transport = ScriptedTransport { request in
            switch request.url.path {
            case "/me/loans":
                // The slow sibling: it would answer in a minute, unless it is cancelled.
                startedContinuation.yield()
                do {
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    slowRequestWasCancelled.withLock { $0 = Task.isCancelled }
                    throw error
                }
                return .ok(#"{"loans":[]}"#)
            case "/books/7/availability":
                // The fast failure, sent once the slow sibling is in flight.
                var iterator = started.makeAsyncIterator()
                _ = await iterator.next()
                return .status(503)
            default:
                let (status, body) = LibraryCatalogue.reply(path: request.url.path, query: nil)
                return .status(status, body: body)
            }
        }
        await #expect(throws: FeatureError.unavailable) {
            try await BookDetailService(client: try libraryClient(transport)).detail(for: 7)
        }
        // The group waits for its cancelled children, so the flag is final here.
        #expect(slowRequestWasCancelled.value)
    }

    @Test("Cancelling the caller throws CancellationError, not a feature error")
    func cancellationPassesThrough() async throws {
        let transport = scriptedLibrary(
            overriding: ["/me/loans": .ok(#"{"loans":[]}"#).delayed(by: .seconds(3_600))])
        let service = BookDetailService(client: try libraryClient(transport))
        let call = Task { try await service.detail(for: 7) }
        while transport.requests.count < 3 {
            await Task.yield()
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
