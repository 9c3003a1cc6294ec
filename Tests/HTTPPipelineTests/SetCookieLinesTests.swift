import Testing

@testable import HTTPPipelineURLSession

/// `Set-Cookie` lines FoundationNetworking joined with ", ", split again.
@Suite struct SetCookieLinesTests {
    @Test(arguments: [
        ("a=1", ["a=1"]),
        ("a=1; Path=/, b=2; HttpOnly", ["a=1; Path=/", "b=2; HttpOnly"]),
        ("a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT, b=2", ["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT", "b=2"]),
        (
            "a=1; expires=Wednesday, 09-Jun-21 10:18:14 GMT; Path=/, b=2",
            ["a=1; expires=Wednesday, 09-Jun-21 10:18:14 GMT; Path=/", "b=2"]
        ),
        ("list=x,y, next=1", ["list=x,y", "next=1"]),
        ("a=1; Max-Age=50,399", ["a=1; Max-Age=50,399"]),
        ("a=1, b", ["a=1, b"]),
    ])
    func joinedLinesAreSplitWhereANewNameValuePairBegins(joined: String, lines: [String]) {
        #expect(SetCookieLines.split(joined) == lines)
    }
}
