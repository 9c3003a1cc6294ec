import Foundation
package import HTTPPipelineAPI

/// Answers the book-detail screen's one question. Screens and view models depend on this
/// protocol, so they can be tested against a one-method fake without transport or JSON.
package protocol BookDetailProviding: Sendable {
    /// The detail of one book.
    ///
    /// - Parameter id: The book's identifier.
    /// - Returns: The composed detail.
    /// - Throws: ``FeatureError``, or `CancellationError` when the calling task is cancelled.
    func detail(for id: Int) async throws -> BookDetail
}

/// Composes a ``BookDetail`` from four resources in two round trips.
///
/// The book, its availability and the member's loans do not depend on each other, so they are
/// requested at once; the author depends on the book, so it is requested as soon as the book
/// arrives, while the other two may still be in flight:
///
/// ```
/// round trip 1   GET /books/{id}   GET /books/{id}/availability   GET /me/loans
/// round trip 2   GET /authors/{authorID}
/// ```
///
/// The requests run in a throwing task group: when one fails, the others still in flight are
/// cancelled at once and the failure is reported as a ``FeatureError``.
///
/// ```swift
/// import HTTPPipelineAPI
///
/// let service = BookDetailService(client: APIClient(baseURL: apiRoot, transport: pipeline))
/// let detail = try await service.detail(for: 42)
/// ```
package struct BookDetailService: BookDetailProviding {
    /// The client the requests go through.
    package let client: APIClient

    /// Creates the service.
    ///
    /// - Parameter client: The client the requests go through.
    package init(client: APIClient) {
        self.client = client
    }

    private enum Part: Sendable {
        case book(LibraryAPI.BookDTO, LibraryAPI.AuthorDTO)
        case availability(LibraryAPI.AvailabilityDTO)
        case loans(LibraryAPI.LoansDTO)
    }

    /// The detail of one book, from `GET /books/{id}`, `GET /books/{id}/availability`,
    /// `GET /me/loans` and `GET /authors/{authorID}`.
    ///
    /// - Parameter id: The book's identifier.
    /// - Returns: The composed detail.
    /// - Throws: ``FeatureError/notFound`` for a 404 from any request,
    ///   ``FeatureError/unavailable`` for 429, 502, 503, 504 or a transport failure,
    ///   ``FeatureError/failed`` for anything else, `CancellationError` when cancelled.
    package func detail(for id: Int) async throws -> BookDetail {
        let client = self.client
        return try await FeatureError.translating {
            try await withThrowingTaskGroup(of: Part.self) { group in
                group.addTask {
                    let book = try await client.send(LibraryAPI.book(id: id))
                    let author = try await client.send(LibraryAPI.author(id: book.authorID))
                    return .book(book, author)
                }
                group.addTask { .availability(try await client.send(LibraryAPI.availability(bookID: id))) }
                group.addTask { .loans(try await client.send(LibraryAPI.myLoans)) }

                var book: (LibraryAPI.BookDTO, LibraryAPI.AuthorDTO)?
                var availability: LibraryAPI.AvailabilityDTO?
                var loans: LibraryAPI.LoansDTO?
                // The first failure leaves the loop; leaving the group cancels the rest.
                for try await part in group {
                    switch part {
                    case .book(let dto, let author): book = (dto, author)
                    case .availability(let dto): availability = dto
                    case .loans(let dto): loans = dto
                    }
                }
                guard let (bookDTO, authorDTO) = book, let availability, let loans else {
                    throw FeatureError.failed
                }
                return BookDetail(
                    id: bookDTO.id,
                    title: bookDTO.title,
                    authorName: authorDTO.name,
                    availability: try Self.availability(from: availability),
                    isOnLoanToMe: loans.loans.contains { $0.bookID == id }
                )
            }
        }
    }

    /// Maps the wire availability to the domain enum; an unknown status or unreadable due date
    /// is a ``FeatureError/failed``.
    static func availability(from dto: LibraryAPI.AvailabilityDTO) throws(FeatureError) -> Availability {
        switch dto.status {
        case "available":
            return .available
        case "unavailable":
            return .unavailable
        case "onLoan":
            guard let text = dto.until, let date = try? Date(text, strategy: .iso8601) else {
                throw .failed
            }
            return .onLoan(until: date)
        default:
            throw .failed
        }
    }
}
