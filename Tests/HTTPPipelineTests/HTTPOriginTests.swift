import Foundation
import HTTPPipeline
import Testing

@Suite struct HTTPOriginTests {
    func origin(_ text: String) throws -> HTTPOrigin? {
        HTTPOrigin(try #require(URL(string: text)))
    }

    @Test func theSchemeAndHostAreLowerCasedAndTheDefaultPortFilledIn() throws {
        let origin = try #require(try origin("HTTPS://API.Example.com/books?q=1#top"))
        #expect(origin.scheme == "https" && origin.host == "api.example.com" && origin.port == 443)
        #expect(try self.origin("http://example.com")?.port == 80)
        #expect(origin.description == "https://api.example.com:443")
    }

    @Test func urlsDifferingOnlyInPathQueryUserInfoOrAWrittenDefaultPortShareAnOrigin() throws {
        let base = try origin("https://api.example.com/a")
        for other in [
            "https://api.example.com:443/b?x=1", "https://user:pw@API.EXAMPLE.COM/c#f", "HTTPS://api.example.com",
        ] {
            #expect(try origin(other) == base, "\(other)")
        }
    }

    @Test func anotherSchemeHostOrPortIsAnotherOrigin() throws {
        let base = try origin("https://api.example.com/")
        for other in ["http://api.example.com/", "https://cdn.example.com/", "https://api.example.com:8443/"] {
            #expect(try origin(other) != base, "\(other)")
        }
    }

    @Test func anIPv6HostIsKeptWithoutBracketsAndPrintedWithThem() throws {
        let origin = try #require(try origin("http://[::1]:8080/x"))
        #expect(origin.host == "::1" && origin.port == 8080)
        #expect(origin.description == "http://[::1]:8080")
        #expect(HTTPOrigin(scheme: "http", host: "[::1]", port: 8080) == origin)
    }

    @Test func aURLWithoutAHostOrWithoutAPortForASchemeWithNoDefaultHasNoOrigin() throws {
        #expect(try origin("file:///etc/passwd") == nil)
        #expect(try origin("mailto:someone@example.com") == nil)
        #expect(try origin("ftp://files.example.com/x") == nil)
        #expect(try origin("ftp://files.example.com:21/x")?.port == 21)
        #expect(try origin("/relative/path") == nil)
    }

    @Test func theCallOriginIsTheRedirectHistorysOriginalURLsOrElseTheRequestsOwn() throws {
        let start = try #require(URL(string: "https://api.example.com/short"))
        let target = try #require(URL(string: "https://cdn.example.com/long"))
        var request = HTTPRequest(url: target)
        #expect(request.callOrigin == HTTPOrigin(target))
        request.context.redirectHistory = HTTPRedirectHistory(
            originalURL: start, hops: [HTTPRedirectHop(status: 302, from: start, to: target, method: .get)])
        #expect(request.callOrigin == HTTPOrigin(start))
        #expect(request.context.redirectHistory?.currentURL == target)
    }
}
