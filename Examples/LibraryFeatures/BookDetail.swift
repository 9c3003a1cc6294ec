package import Foundation
import HTTPPipelineAPI

/// Whether a book can be borrowed now.
package enum Availability: Sendable, Hashable {
    /// On the shelf: it can be borrowed.
    case available
    /// Lent out until a due date.
    case onLoan(until: Date)
    /// Not lendable (reference copy, lost, in repair).
    case unavailable
}

/// Everything the book-detail screen shows, composed from four resources.
package struct BookDetail: Sendable, Hashable {
    /// The book's identifier.
    package var id: Int
    /// The book's title.
    package var title: String
    /// The author's display name.
    package var authorName: String
    /// Whether the book can be borrowed now.
    package var availability: Availability
    /// Whether the signed-in member has the book on loan.
    package var isOnLoanToMe: Bool

    /// Creates a book detail.
    ///
    /// - Parameters:
    ///   - id: The book's identifier.
    ///   - title: The book's title.
    ///   - authorName: The author's display name.
    ///   - availability: Whether the book can be borrowed now.
    ///   - isOnLoanToMe: Whether the signed-in member has it on loan.
    package init(id: Int, title: String, authorName: String, availability: Availability, isOnLoanToMe: Bool) {
        self.id = id
        self.title = title
        self.authorName = authorName
        self.availability = availability
        self.isOnLoanToMe = isOnLoanToMe
    }
}

/// The failures a screen acts on; everything the API layer can report maps to one of them.
///
/// Cancellation is not among them: a cancelled call throws `CancellationError`.
package enum FeatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The resource does not exist (a 404 from any of the requests).
    case notFound
    /// The service cannot answer now but may later: 429, 502, 503, 504 or a transport failure.
    case unavailable
    /// Anything else: other statuses, undecodable or oversized replies, requests that cannot be built.
    case failed

    /// A one-line explanation.
    package var description: String {
        switch self {
        case .notFound: "not found"
        case .unavailable: "temporarily unavailable"
        case .failed: "failed"
        }
    }

    /// Maps any error thrown by an `APIClient` call to the screen's vocabulary,
    /// passing cancellation through.
    ///
    /// - Parameter error: What the call threw.
    /// - Returns: The feature error to throw instead.
    /// - Throws: `CancellationError` when `error` is a cancellation, or the calling task is cancelled.
    static func map(_ error: any Error) throws -> FeatureError {
        if error is CancellationError || Task.isCancelled {
            throw CancellationError()
        }
        if let error = error as? FeatureError {
            return error
        }
        guard let error = error as? APIError else {
            return .failed
        }
        if error.statusCode == 404 { return .notFound }
        if error.isTransport || [429, 502, 503, 504].contains(error.statusCode) { return .unavailable }
        return .failed
    }

    /// Runs `body`, translating what it throws with ``map(_:)``.
    static func translating<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw try map(error)
        }
    }
}
