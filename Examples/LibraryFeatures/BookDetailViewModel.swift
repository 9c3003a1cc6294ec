/// The state behind a book-detail screen, driven by any ``BookDetailProviding``.
///
/// It knows nothing of HTTP: it turns the provider's answer or ``FeatureError`` into a
/// ``State`` the screen renders.
///
/// ```swift
/// let model = BookDetailViewModel(bookID: 42, provider: BookDetailService(client: client))
/// await model.load()
/// if case .loaded(let detail) = model.state { print(detail.title) }
/// ```
@MainActor
package final class BookDetailViewModel {
    /// What the screen shows.
    package enum State: Sendable, Hashable {
        /// The request is running (also the state before the first load).
        case loading
        /// The detail arrived.
        case loaded(BookDetail)
        /// The book does not exist.
        case notFound
        /// The service is unavailable; `retryable` says whether offering "Try again" makes sense.
        case unavailable(retryable: Bool)
        /// Something went wrong that retrying will not fix.
        case failed
    }

    /// The book shown.
    package let bookID: Int
    /// What the screen shows now.
    package private(set) var state: State = .loading
    private let provider: any BookDetailProviding

    /// Creates the model in the ``State/loading`` state.
    ///
    /// - Parameters:
    ///   - bookID: The book to show.
    ///   - provider: Where the detail comes from.
    package init(bookID: Int, provider: any BookDetailProviding) {
        self.bookID = bookID
        self.provider = provider
    }

    /// Loads (or reloads) the detail and updates ``state``.
    ///
    /// A cancelled load puts back the state it found.
    package func load() async {
        let previous = state
        state = .loading
        do {
            state = .loaded(try await provider.detail(for: bookID))
        } catch FeatureError.notFound {
            state = .notFound
        } catch FeatureError.unavailable {
            state = .unavailable(retryable: true)
        } catch is CancellationError {
            state = previous
        } catch {
            state = .failed
        }
    }
}
