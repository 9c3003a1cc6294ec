import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// How a `Location` is resolved, and which ones are refused before anything is sent.
@Suite struct RedirectLocationTests {
    /// RFC 3986 §5.4's examples, against its base URL `http://a/b/c/d;p?q`.
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), (";x", "http://a/b/c/;x"),
        (".", "http://a/b/c/"), ("..", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../../g", "http://a/g"), ("/./g", "http://a/g"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/../x", "http://a/b/c/g?y/../x"), ("http://x/y?z", "http://x/y?z"),
    ])
    func aRelativeLocationIsResolvedAgainstTheURLThatAnswered(location: String, expected: String) async throws {
        let transport = transport(["http://a/b/c/d;p?q": redirect(302, to: location)])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(
            HTTPRequest(url: url("http://a/b/c/d;p?q")))
        #expect(sentURLs(transport) == ["http://a/b/c/d;p?q", expected])
    }

    @Test func aLocationWithoutAFragmentKeepsTheFragmentOfTheRequestRedirected() async throws {
        let transport = transport([
            "https://api.example.invalid/a": redirect(302, to: "/b"),
            "https://api.example.invalid/b": redirect(302, to: "/c#section-2"),
        ])
        let hops = Hops()
        var request = HTTPRequest(url: url("https://api.example.invalid/a#intro"))
        request.context.onRedirect = { hops.append($0) }
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(
            hops.value.map(\.to.absoluteString) == [
                "https://api.example.invalid/b#intro",  // carried over
                "https://api.example.invalid/c#section-2",  // the Location's own wins
            ])
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectWithoutALocationThrowsAndNothingMoreIsSent(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/a": .status(status)])
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/a")), over: transport)
        #expect(error == .missingLocation(status: status))
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: ["http://exa mple.com/", "http://[::1", "http://", "https:///path", "  ", "http:g"])
    func aMalformedLocationThrowsAndNothingMoreIsSent(_ location: String) async throws {
        let transport = transport(["https://api.example.invalid/a": redirect(302, to: location)])
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/a")), over: transport)
        #expect(error == .malformedLocation(status: 302, location: location))
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "file"), ("data:text/html,<script>alert(1)</script>", "data"),
        ("javascript:alert(document.cookie)", "javascript"), ("ftp://files.example.invalid/x", "ftp"),
        ("FILE:///etc/passwd", "file"),
    ])
    func aLocationThatIsNotHttpOrHttpsThrowsAndNothingMoreIsSent(location: String, scheme: String) async throws {
        let transport = transport(["https://api.example.invalid/a": redirect(302, to: location)])
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/a")), over: transport)
        #expect(error == .unsupportedScheme(status: 302, scheme: scheme))
        #expect(transport.requests.count == 1)
    }

    @Test func errorDescriptionsShowNoQueryOrUserInfo() {
        let error = RedirectError.loop(method: .get, url: url("https://user:pw@api.example.invalid/a?token=s3cret#f"))
        #expect(
            error.description == "a redirect loop: GET https://api.example.invalid:443/a was already sent in this call")
        let malformed = RedirectError.malformedLocation(status: 302, location: "http://exa mple/?token=s3cret")
        #expect(!malformed.description.contains("s3cret"))
    }
}

/// The hops an observer was told of.
final class Hops: Sendable {
    private let hops = Locked<[HTTPRedirectHop]>([])

    func append(_ hop: HTTPRedirectHop) {
        hops.withLock { $0.append(hop) }
    }

    var value: [HTTPRedirectHop] { hops.value }
}
