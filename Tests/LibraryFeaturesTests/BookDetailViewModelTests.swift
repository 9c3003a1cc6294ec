import Foundation
import LibraryFeatures
import Testing

/// A one-method fake of the feature service: no transport, no JSON.
struct FakeBookDetails: BookDetailProviding {
    let answer: @Sendable (Int) async throws -> BookDetail

    func detail(for id: Int) async throws -> BookDetail {
        try await answer(id)
    }
}

@Suite("LibraryFeatures: book detail view model")
@MainActor
struct BookDetailViewModelTests {
    let dune = BookDetail(
        id: 1, title: "Dune", authorName: "Frank Herbert", availability: .available, isOnLoanToMe: false)

    @Test("The model starts loading and shows the detail the provider answers")
    func showsTheDetail() async {
        let detail = dune
        let model = BookDetailViewModel(
            bookID: 1,
            provider: FakeBookDetails { id in
                #expect(id == 1)
                return detail
            })
        #expect(model.state == .loading)
        await model.load()
        #expect(model.state == .loaded(detail))
    }

    @Test(
        "Each feature error becomes the state the screen renders",
        arguments: [
            (FeatureError.notFound, BookDetailViewModel.State.notFound),
            (.unavailable, .unavailable(retryable: true)),
            (.failed, .failed),
        ]
    )
    func mapsErrorsToStates(error: FeatureError, expected: BookDetailViewModel.State) async {
        let model = BookDetailViewModel(bookID: 1, provider: FakeBookDetails { _ in throw error })
        await model.load()
        #expect(model.state == expected)
    }

    @Test("Retrying after an unavailable service shows the detail")
    func retryAfterUnavailableLoads() async {
        let detail = dune
        let attempts = Attempts()
        let model = BookDetailViewModel(
            bookID: 1,
            provider: FakeBookDetails { _ in
                if await attempts.next() == 1 { throw FeatureError.unavailable }
                return detail
            })
        await model.load()
        #expect(model.state == .unavailable(retryable: true))
        await model.load()
        #expect(model.state == .loaded(detail))
    }

    @Test("A cancelled reload keeps the state it found")
    func cancelledLoadKeepsState() async {
        let detail = dune
        let attempts = Attempts()
        let model = BookDetailViewModel(
            bookID: 1,
            provider: FakeBookDetails { _ in
                if await attempts.next() == 2 { throw CancellationError() }
                return detail
            })
        await model.load()
        await model.load()
        #expect(model.state == .loaded(detail))
    }
}

/// Counts calls across tasks.
actor Attempts {
    private var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}
