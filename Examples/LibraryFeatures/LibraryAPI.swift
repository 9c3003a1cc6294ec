import Foundation
package import HTTPPipelineAPI

/// The library API's wire types and endpoints: what the API layer decodes, before a feature
/// service turns it into domain values.
///
/// Feature services compose these endpoints; screens never see them.
package enum LibraryAPI {
    /// A book as `GET /books/{id}` and `GET /books` send it.
    package struct BookDTO: Codable, Sendable, Equatable {
        /// The book's identifier.
        package var id: Int
        /// The book's title.
        package var title: String
        /// The identifier of the book's author; resolve it with `GET /authors/{id}`.
        package var authorID: Int

        /// Creates a book.
        ///
        /// - Parameters:
        ///   - id: The book's identifier.
        ///   - title: The book's title.
        ///   - authorID: The author's identifier.
        package init(id: Int, title: String, authorID: Int) {
            self.id = id
            self.title = title
            self.authorID = authorID
        }
    }

    /// An author as `GET /authors/{id}` and `GET /authors?ids=` send it.
    package struct AuthorDTO: Codable, Sendable, Equatable {
        /// The author's identifier.
        package var id: Int
        /// The author's display name.
        package var name: String
    }

    /// The reply of the batch endpoint `GET /authors?ids=1,2,3`.
    package struct AuthorBatchDTO: Codable, Sendable, Equatable {
        /// The authors found; unknown identifiers are left out.
        package var authors: [AuthorDTO]
    }

    /// The availability of one book as `GET /books/{id}/availability` sends it.
    package struct AvailabilityDTO: Codable, Sendable, Equatable {
        /// `available`, `onLoan` or `unavailable`.
        package var status: String
        /// For `onLoan`: the due date as an ISO 8601 timestamp.
        package var until: String?
    }

    /// One loan of the signed-in member.
    package struct LoanDTO: Codable, Sendable, Equatable {
        /// The identifier of the lent book.
        package var bookID: Int
    }

    /// The reply of `GET /me/loans`.
    package struct LoansDTO: Codable, Sendable, Equatable {
        /// The member's current loans.
        package var loans: [LoanDTO]
    }

    /// One page of `GET /books?cursor=…&limit=…`.
    package struct BookPageDTO: Codable, Sendable, Equatable {
        /// The books of this page, in catalogue order.
        package var books: [BookDTO]
        /// The cursor of the next page; `nil` on the last page.
        package var nextCursor: String?
    }

    /// `GET /books/{id}`.
    ///
    /// - Parameter id: The book's identifier.
    /// - Returns: The endpoint.
    package static func book(id: Int) -> Endpoint<BookDTO> {
        .get("/books/\(String(id))")
    }

    /// `GET /books/{id}/availability`.
    ///
    /// - Parameter bookID: The book's identifier.
    /// - Returns: The endpoint.
    package static func availability(bookID: Int) -> Endpoint<AvailabilityDTO> {
        .get("/books/\(String(bookID))/availability")
    }

    /// `GET /me/loans`: the signed-in member's loans.
    package static var myLoans: Endpoint<LoansDTO> {
        .get("/me/loans")
    }

    /// `GET /authors/{id}`.
    ///
    /// - Parameter id: The author's identifier.
    /// - Returns: The endpoint.
    package static func author(id: Int) -> Endpoint<AuthorDTO> {
        .get("/authors/\(String(id))")
    }

    /// `GET /authors?ids=1,2,3`: several authors in one request.
    ///
    /// - Parameter ids: The authors' identifiers, sent in this order.
    /// - Returns: The endpoint.
    package static func authors(ids: [Int]) -> Endpoint<AuthorBatchDTO> {
        .get("/authors", query: [URLQueryItem(name: "ids", value: ids.map(String.init).joined(separator: ","))])
    }

    /// `GET /books?cursor=…&limit=…`: one page of the catalogue.
    ///
    /// - Parameters:
    ///   - cursor: The cursor of a previous page's ``BookPageDTO/nextCursor``; `nil` for the first page.
    ///   - limit: The most books on the page.
    /// - Returns: The endpoint.
    package static func books(cursor: String?, limit: Int) -> Endpoint<BookPageDTO> {
        var query: [URLQueryItem] = []
        if let cursor {
            query.append(URLQueryItem(name: "cursor", value: cursor))
        }
        query.append(URLQueryItem(name: "limit", value: String(limit)))
        return .get("/books", query: query)
    }
}
