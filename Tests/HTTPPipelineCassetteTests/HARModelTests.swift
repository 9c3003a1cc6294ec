import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

/// A HAR written by hand from the HAR 1.2 specification's examples, with the fields a browser
/// adds (pages, cookies with their attributes, timings with dns and connect): what another tool
/// writes.
let browserHAR = """
    {
      "log": {
        "version": "1.2",
        "creator": {"name": "WebInspector", "version": "537.36"},
        "browser": {"name": "Chrome", "version": "120.0"},
        "pages": [{"startedDateTime": "2009-04-16T12:07:23.596Z", "id": "page_0", "title": "Test Page",
                   "pageTimings": {"onContentLoad": 1720, "onLoad": 2500}}],
        "entries": [
          {
            "pageref": "page_0",
            "startedDateTime": "2009-04-16T12:07:23.596Z",
            "time": 50,
            "request": {
              "method": "GET",
              "url": "http://www.example.com/path/?param=value",
              "httpVersion": "HTTP/1.1",
              "cookies": [{"name": "TestCookie", "value": "Cookie Value", "path": "/", "domain": "www.example.com",
                           "expires": "2009-07-24T19:20:30.123+02:00", "httpOnly": false, "secure": false}],
              "headers": [{"name": "Accept", "value": "text/html"}],
              "queryString": [{"name": "param", "value": "value"}],
              "headersSize": 150,
              "bodySize": 0
            },
            "response": {
              "status": 200,
              "statusText": "OK",
              "httpVersion": "HTTP/1.1",
              "cookies": [],
              "headers": [{"name": "Content-Type", "value": "text/html; charset=utf-8"}],
              "content": {"size": 33, "compression": 0, "mimeType": "text/html; charset=utf-8",
                          "text": "<html><body>hello</body></html>\\n"},
              "redirectURL": "",
              "headersSize": 160,
              "bodySize": 33
            },
            "cache": {},
            "timings": {"blocked": 0, "dns": -1, "connect": 15, "send": 20, "wait": 38, "receive": 12, "ssl": -1},
            "serverIPAddress": "10.0.0.1",
            "connection": "52492"
          },
          {
            "startedDateTime": "2009-04-16T12:07:24.000Z",
            "time": 10,
            "request": {
              "method": "POST", "url": "http://www.example.com/upload", "httpVersion": "HTTP/1.1",
              "cookies": [], "headers": [], "queryString": [],
              "postData": {"mimeType": "application/octet-stream", "params": [], "text": "AAEC", "encoding": "base64"},
              "headersSize": -1, "bodySize": 3
            },
            "response": {
              "status": 204, "statusText": "No Content", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
              "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": 0
            },
            "cache": {},
            "timings": {"send": 1, "wait": 8, "receive": 1}
          }
        ]
      }
    }
    """

@Suite struct HARModelTests {
    @Test func aHARWrittenByAnotherToolLoadsWithEveryField() throws {
        let cassette = try Cassette(data: Data(browserHAR.utf8))
        let entries = cassette.entries
        #expect(entries.count == 2)
        let first = try #require(entries.first)
        #expect(first.pageref == "page_0")
        #expect(first.request.url == "http://www.example.com/path/?param=value")
        #expect(first.request.cookies.first?.domain == "www.example.com")
        #expect(first.request.queryString == [HAR.NameValue(name: "param", value: "value")])
        #expect(first.response.content.text == "<html><body>hello</body></html>\n")
        #expect(first.timings.connect == 15)
        #expect(first.serverIPAddress == "10.0.0.1")
        #expect(entries[1].request.postData?.encoding == "base64")
    }

    @Test func aHARWrittenByAnotherToolIsReplayed() async throws {
        let replay = try ReplayingTransport(Cassette(data: Data(browserHAR.utf8)))
        let response = try await replay.send(HTTPRequest(url: testURL("http://www.example.com/path/?param=value")))
        #expect(response.status == 200)
        #expect(response.body.bufferedData == Data("<html><body>hello</body></html>\n".utf8))
    }

    @Test func aWrittenCassetteHasEveryFieldHAR12Requires() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/books?page=2")),
            HTTPRequest(
                method: .post,
                url: testURL("https://api.example.com/books"),
                fields: [.contentType: "application/json"],
                body: HTTPBody(Data(#"{"title":"Dune"}"#.utf8))
            ),
        ])
        let json = try JSONSerialization.jsonObject(with: cassette.harData())
        let log = try #require((json as? [String: Any])?["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(Set(creator.keys).isSuperset(of: ["name", "version"]))
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        for entry in entries {
            #expect(
                Set(entry.keys).isSuperset(of: [
                    "startedDateTime", "time", "request", "response", "cache", "timings",
                ]))
            let request = try #require(entry["request"] as? [String: Any])
            #expect(
                Set(request.keys).isSuperset(of: [
                    "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize",
                ]))
            let response = try #require(entry["response"] as? [String: Any])
            #expect(
                Set(response.keys).isSuperset(of: [
                    "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                    "headersSize", "bodySize",
                ]))
            let content = try #require(response["content"] as? [String: Any])
            #expect(Set(content.keys).isSuperset(of: ["size", "mimeType"]))
            let timings = try #require(entry["timings"] as? [String: Any])
            #expect(Set(timings.keys).isSuperset(of: ["send", "wait", "receive"]))
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(started) <= Date())
        }
        let post = try #require(entries[1]["request"] as? [String: Any])
        let postData = try #require(post["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "application/json")
        #expect(postData["text"] as? String == #"{"title":"Dune"}"#)
        let query = try #require((entries[0]["request"] as? [String: Any])?["queryString"] as? [[String: Any]])
        #expect(query.first?["name"] as? String == "page")
    }

    @Test func binaryBodiesAreWrittenAsBase64AndTextBodiesAsText() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x01])
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://cdn.example.com/a.png"))]) { _ in
            .status(200, headers: ["Content-Type": "image/png"], body: png)
        }
        let content = try #require(cassette.entries.first?.response.content)
        #expect(content.encoding == "base64")
        #expect(content.text == png.base64EncodedString())
        #expect(content.size == png.count)
        let replayed = try await ReplayingTransport(cassette).send(
            HTTPRequest(url: testURL("https://cdn.example.com/a.png")))
        #expect(replayed.body.bufferedData == png)
    }
}
