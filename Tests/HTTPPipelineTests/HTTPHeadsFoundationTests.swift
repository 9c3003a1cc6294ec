import Foundation
import HTTPPipeline
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct HTTPHeadsFoundationTests {
    static let url = URL(string: "https://api.example.invalid/v1/items?page=2") ?? URL(fileURLWithPath: "/")

    @Test("A request head becomes a URLRequest with its method, URL and fields; repeated names join")
    func requestHeadBecomesAURLRequest() throws {
        var fields: HTTPFields = [.accept: "application/json", HTTPField.Name(unchecked: "X-Trace-ID"): "t-1"]
        fields.append(HTTPField(name: "accept", value: "text/plain"))
        let request = try URLRequest(HTTPRequestHead(method: .post, url: Self.url, fields: fields))
        #expect(request.httpMethod == "POST")
        #expect(request.url == Self.url)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json,text/plain")
        #expect(request.value(forHTTPHeaderField: "x-trace-id") == "t-1")
    }

    @Test(
        "A field that would inject a header or is not a token is refused, and the reason never shows the value",
        arguments: [
            ("X-Token", "secret\r\nX-Injected: 1"), ("X-Token", "secret\nx"), ("X-Token", "secret\u{0}"),
            ("Bad Name", "v"), ("", "v"), ("X:Colon", "v"),
        ])
    func injectedFieldsAreRefused(name: String, value: String) {
        let head = HTTPRequestHead(url: Self.url, fields: HTTPFields([HTTPField(name: name, value: value)]))
        #expect {
            try URLRequest(head)
        } throws: { error in
            guard let error = error as? HTTPTransportError, error.isInvalidRequest, let reason = error.reason else {
                return false
            }
            return !reason.contains("secret")
        }
    }

    @Test("A URLRequest becomes a head and back without losing its method, URL or fields")
    func urlRequestRoundTrips() throws {
        var request = URLRequest(url: Self.url)
        request.httpMethod = "PATCH"
        request.setValue("1", forHTTPHeaderField: "X-One")
        request.setValue("two", forHTTPHeaderField: "X-Two")
        let head = try HTTPRequestHead(request)
        #expect(head.method == .patch)
        #expect(head.fields["x-one"] == "1")
        let back = try URLRequest(head)
        #expect(back.httpMethod == "PATCH")
        #expect(back.allHTTPHeaderFields == request.allHTTPHeaderFields)
    }

    @Test("An HTTPURLResponse becomes a head with its status and every field")
    func responseBecomesAHead() throws {
        let response = try #require(
            HTTPURLResponse(
                url: Self.url, statusCode: 206, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "Content-Range": "bytes 0-9/100"]))
        let head = HTTPResponseHead(response)
        #expect(head.status == 206)
        #expect(head.fields.count == 2)
        #expect(head.fields["content-range"] == "bytes 0-9/100")
    }
}
