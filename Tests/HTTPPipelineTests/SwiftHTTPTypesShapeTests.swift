import Foundation
import HTTPPipeline
import Testing

/// Three snippets in the style of swift-http-types' own documentation, written anew against this
/// package's types: they read the same, apart from the names the mapping table in
/// Documentation/Architecture.md lists (`fields` for `headerFields`, a `URL` for
/// scheme/authority/path).
@Suite struct SwiftHTTPTypesShapeTests {
    @Test("A request built with a method static and typed field names reads as swift-http-types'")
    func buildingARequest() throws {
        // swift-http-types: var request = HTTPRequest(method: .get, scheme: "https",
        //     authority: "www.example.com", path: "/")
        // request.headerFields[.userAgent] = "MyApp/1.0"
        var request = HTTPRequest(method: .get, url: try #require(URL(string: "https://www.example.com/")))
        request.fields[.userAgent] = "MyApp/1.0"
        request.fields[.accept] = "application/json"
        #expect(request.method == .get)
        #expect(request.fields[.userAgent] == "MyApp/1.0")
        #expect(request.fields.map(\.name) == [.userAgent, .accept])
    }

    @Test("A response's status compares with a static or a literal and has a kind")
    func readingAResponseStatus() {
        // swift-http-types: let response = HTTPResponse(status: .ok)
        // if response.status.kind == .successful { … }
        let response = HTTPResponse(status: .ok)
        #expect(response.status == .ok)
        #expect(response.status == 200)
        #expect(response.status.kind == .successful)
        #expect(response.status.reasonPhrase == "OK")
        let statuses: [HTTPResponse.Status] = [101, 204, 301, 404, 503, 42]
        let kinds: [HTTPResponse.Status.Kind] = [
            .informational, .successful, .redirection, .clientError, .serverError, .invalid,
        ]
        #expect(statuses.map(\.kind) == kinds)
        switch HTTPResponse.Status(code: 404) {
        case .notFound: break
        default: Issue.record("404 is .notFound")
        }
    }

    @Test("Methods are checked tokens kept in their case; a list-valued field is read whole or by value")
    func methodsAndListValuedFields() throws {
        // swift-http-types: let method = HTTPRequest.Method("PATCH")   // nil for a non-token
        // fields[.accept] joins values with ", "; fields[values: .accept] splits them
        let method = try #require(HTTPRequest.Method("PATCH"))
        #expect(method == .patch)
        #expect(HTTPRequest.Method("GET /x") == nil)
        #expect(HTTPRequest.Method("patch") != .patch)
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "text/html"))
        fields.append(HTTPField(name: .accept, value: "application/json;q=0.9"))
        #expect(fields[.accept] == "text/html, application/json;q=0.9")
        #expect(fields[values: .accept] == ["text/html", "application/json;q=0.9"])
    }
}
