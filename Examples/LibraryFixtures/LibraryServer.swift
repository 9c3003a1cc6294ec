package import Foundation
package import HTTPPipeline
package import HTTPPipelineAPI
package import HTTPPipelineTesting
package import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

/// The fixed catalogue the library scenario runs on, and the JSON the library API answers with.
///
/// Self-contained on purpose (Foundation only): it writes its JSON by hand, independently of
/// `LibraryAPI`'s DTOs, so the tests also check decoding, and the demo can reuse the file as is.
///
/// - 60 books, ids 1...60, title `"Book <id>"`.
/// - 15 authors; book `id` is by author `((id - 1) / 3) % 15 + 1`, so pages of 20 books share
///   authors: page 1 has authors 1...7, page 2 7...14, page 3 14, 15 and 1...5.
/// - Availability by `id % 3`: 0 available, 1 on loan until ``loanDue``, 2 unavailable.
/// - The member's loans: books ``myLoans``.
package enum LibraryCatalogue {
    package static let bookIDs = 1...60
    package static let authorIDs = 1...15
    package static let myLoans = [4, 7]
    package static let loanDue = "2030-01-15T00:00:00Z"
    package static let authorNames = [
        "Ursula K. Le Guin", "Octavia E. Butler", "Italo Calvino", "Jorge Luis Borges", "Toni Morrison",
        "Stanisław Lem", "Virginia Woolf", "Chinua Achebe", "Haruki Murakami", "Clarice Lispector",
        "Gabriel García Márquez", "Doris Lessing", "Naguib Mahfouz", "Ted Chiang", "Wisława Szymborska",
    ]

    package static func title(ofBook id: Int) -> String { "Book \(id)" }
    package static func authorID(ofBook id: Int) -> Int { ((id - 1) / 3) % authorIDs.count + 1 }
    package static func authorName(_ id: Int) -> String { authorNames[id - 1] }

    /// The status and JSON body the API answers a `GET` with; 404 and no body for anything unknown.
    package static func reply(path: String, query: String?) -> (status: Int, body: Data) {
        let parts = path.split(separator: "/").map(String.init)
        let parameters = parse(query)
        func ok(_ json: String) -> (Int, Data) { (200, Data(json.utf8)) }
        switch parts.count {
        case 1 where parts[0] == "books":
            let offset = parameters["cursor"].flatMap { Int($0) } ?? 0
            let limit = parameters["limit"].flatMap { Int($0) } ?? 20
            let ids = bookIDs.dropFirst(offset).prefix(limit)
            let next = offset + limit < bookIDs.count ? "\"\(offset + limit)\"" : "null"
            return ok(#"{"books":[\#(ids.map(bookJSON).joined(separator: ","))],"nextCursor":\#(next)}"#)
        case 1 where parts[0] == "authors":
            let ids = (parameters["ids"] ?? "").split(separator: ",").compactMap { Int($0) }
            let known = ids.filter(authorIDs.contains)
            return ok(#"{"authors":[\#(known.map(authorJSON).joined(separator: ","))]}"#)
        case 2 where parts[0] == "books":
            guard let id = Int(parts[1]), bookIDs.contains(id) else { break }
            return ok(bookJSON(id))
        case 2 where parts[0] == "authors":
            guard let id = Int(parts[1]), authorIDs.contains(id) else { break }
            return ok(authorJSON(id))
        case 2 where parts == ["me", "loans"]:
            return ok(#"{"loans":[\#(myLoans.map { #"{"bookID":\#($0)}"# }.joined(separator: ","))]}"#)
        case 3 where parts[0] == "books" && parts[2] == "availability":
            guard let id = Int(parts[1]), bookIDs.contains(id) else { break }
            switch id % 3 {
            case 0: return ok(#"{"status":"available"}"#)
            case 1: return ok(#"{"status":"onLoan","until":"\#(loanDue)"}"#)
            default: return ok(#"{"status":"unavailable"}"#)
            }
        default:
            break
        }
        return (404, Data())
    }

    /// The names and percent-decoded values of a query string.
    package static func parse(_ query: String?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = halves.first?.removingPercentEncoding else { continue }
            result[name] = halves.count > 1 ? (halves[1].removingPercentEncoding ?? halves[1]) : ""
        }
        return result
    }

    private static func bookJSON(_ id: Int) -> String {
        #"{"id":\#(id),"title":"\#(title(ofBook: id))","authorID":\#(authorID(ofBook: id))}"#
    }

    private static func authorJSON(_ id: Int) -> String {
        #"{"id":\#(id),"name":"\#(authorName(id))"}"#
    }
}

/// A ``LoopbackServer`` serving ``LibraryCatalogue`` with a fixed delay on every route, and an
/// ``APIClient`` pointed at it over `URLSessionTransport`.
///
/// The server routes by exact path, so every book, availability and author gets its own route;
/// `/books` (pages) and `/authors` (batch) read their query. ``stop()`` stops the server and
/// invalidates the session.
package final class LibraryServer: Sendable {
    /// The loopback server the routes are installed on.
    package let server = LoopbackServer()
    /// The latency of every route.
    package let delay: Duration
    /// The session the client sends with.
    package let session: URLSession
    /// An API client over the session (through `pipeline`, when one was given).
    package let client: APIClient

    /// Starts a server answering every route after `delay`.
    ///
    /// - Parameters:
    ///   - delay: The latency of every route.
    ///   - connectionsPerHost: The session's `httpMaximumConnectionsPerHost`.
    ///   - cacheControl: The `Cache-Control` of every answer with a body, if any (the catalog
    ///     screen's HTTP cache reads it).
    ///   - pipeline: Wraps the session's transport, for example in the standard plugin stack.
    /// - Throws: When the loopback server cannot start.
    package init(
        delay: Duration,
        connectionsPerHost: Int = 6,
        cacheControl: String? = nil,
        pipeline: (URLSessionTransport) throws -> any HTTPTransport = { $0 }
    ) throws {
        self.delay = delay
        try server.start()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        session = URLSession(configuration: configuration)
        client = APIClient(baseURL: server.baseURL, transport: try pipeline(URLSessionTransport(session: session)))
        var paths = ["/books", "/authors", "/me/loans"]
        for id in LibraryCatalogue.bookIDs {
            paths += ["/books/\(id)", "/books/\(id)/availability"]
        }
        for id in LibraryCatalogue.authorIDs {
            paths.append("/authors/\(id)")
        }
        for path in paths {
            server.route("GET", path) { request in
                let (status, body) = LibraryCatalogue.reply(path: request.path, query: request.query)
                var response = Self.response(status: status, body: body, delay: delay)
                if let cacheControl, !body.isEmpty { response.headers.append(("Cache-Control", cacheControl)) }
                return response
            }
        }
    }

    /// Replaces the route of `path` with an empty-bodied `status`, after the same delay.
    package func fail(_ path: String, status: Int) {
        server.route("GET", path, Self.response(status: status, body: Data(), delay: delay))
    }

    /// Every request received, in arrival order.
    package var requests: [LoopbackServer.RecordedRequest] { server.requests }

    /// The author ids asked for, in arrival order: one per `/authors/{id}` request, and every id
    /// in the `ids` query of each `/authors` batch request.
    package var requestedAuthorIDs: [Int] {
        requests.flatMap { request -> [Int] in
            if request.path == "/authors" {
                let ids = LibraryCatalogue.parse(request.query)["ids"] ?? ""
                return ids.split(separator: ",").compactMap { Int($0) }
            }
            if request.path.hasPrefix("/authors/"), let id = Int(request.path.dropFirst("/authors/".count)) {
                return [id]
            }
            return []
        }
    }

    package func stop() {
        session.finishTasksAndInvalidate()
        server.stop()
    }

    static func response(status: Int, body: Data, delay: Duration) -> LoopbackServer.Response {
        LoopbackServer.Response(
            status: status,
            headers: body.isEmpty ? [] : [("Content-Type", "application/json")],
            body: body,
            delay: delay
        )
    }
}
