import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineTesting
import Testing

@Suite struct DefaultHeadersTests {
    let transport = ScriptedTransport(respond: { _ in .ok() })
    let url = URL(string: "https://api.example.invalid/books") ?? URL(fileURLWithPath: "/")

    func send(_ headers: DefaultHeaders, _ request: HTTPRequest? = nil) async throws -> HTTPRequest? {
        _ = try await Pipeline(transport: transport) { headers }.send(request ?? HTTPRequest(url: url))
        return transport.requests.last
    }

    @Test func fixedHeaderIsAddedWhenTheRequestLacksIt() async throws {
        let sent = try await send(DefaultHeaders([.fixed("User-Agent", "Shelf/2.3")]))
        #expect(sent?.fields["User-Agent"] == "Shelf/2.3")
    }

    @Test(arguments: ["User-Agent", "user-agent", "USER-AGENT"])
    func requestsOwnHeaderWinsByDefaultWhateverItsCase(callerSpelling: String) async throws {
        var request = HTTPRequest(url: url)
        request.fields[callerSpelling] = "Caller/1.0"
        let sent = try await send(DefaultHeaders([.fixed("User-Agent", "Shelf/2.3")]), request)
        #expect(sent?.fields["user-agent"] == "Caller/1.0")
        #expect(sent?.fields.count == 1)
    }

    @Test func overridePolicyReplacesTheRequestsValueWithoutLeavingACaseVariantBehind() async throws {
        var request = HTTPRequest(url: url)
        request.fields["accept-language"] = "caller"
        let sent = try await send(DefaultHeaders([.fixed("Accept-Language", "de-CH", policy: .override)]), request)
        #expect(sent?.fields["Accept-Language"] == "de-CH")
        #expect(sent?.fields.count == 1)
        #expect(sent?.fields[values: HTTPField.Name(unchecked: "accept-language")] == ["de-CH"])
    }

    @Test func appendPolicyExtendsAListAndSkipsAValueAlreadyThere() async throws {
        let headers = try DefaultHeaders([.fixed("Accept-Encoding", "br", policy: .append)])
        var plain = HTTPRequest(url: url)
        plain.fields["Accept-Encoding"] = "gzip, deflate"
        #expect(try await send(headers, plain)?.fields["Accept-Encoding"] == "gzip, deflate, br")
        var already = HTTPRequest(url: url)
        already.fields["Accept-Encoding"] = "gzip, BR"
        #expect(try await send(headers, already)?.fields["Accept-Encoding"] == "gzip, BR")
        #expect(try await send(headers)?.fields["Accept-Encoding"] == "br")
    }

    @Test func computedHeaderIsEvaluatedForEachRequestAndSeesIt() async throws {
        let counter = Counter()
        let headers = try DefaultHeaders([
            .computed("X-Request-ID") { _ in "req-\(counter.next())" },
            .computed("X-Path") { request in request.url.path },
            .computed("X-Nothing") { _ in nil },
        ])
        _ = try await send(headers)
        let second = try await send(headers)
        #expect(transport.requests.map { $0.fields["X-Request-ID"] } == ["req-1", "req-2"])
        #expect(second?.fields["X-Path"] == "/books")
        #expect(second?.fields["X-Nothing"] == nil)
    }

    @Test func computedHeaderIsNotComputedWhenTheRequestAlreadyHasIt() async throws {
        let counter = Counter()
        var request = HTTPRequest(url: url)
        request.fields["X-Request-ID"] = "mine"
        _ = try await send(DefaultHeaders([.computed("X-Request-ID") { _ in "req-\(counter.next())" }]), request)
        #expect(counter.value == 0)
    }

    @Test(arguments: [
        "", "Bad Name", "X-Colon:", "X-New\r\nLine", "X-Nul\u{0}", "Caf\u{E9}", "(comment)", "X-Slash/", "X-Quote\"",
    ])
    func illegalHeaderNameIsRefusedWhenTheMiddlewareIsBuilt(name: String) {
        #expect(throws: HeaderError.self) { try DefaultHeaders([.fixed(name, "value")]) }
    }

    @Test(arguments: ["line\nfeed", "carriage\rreturn", "nul\u{0}byte", "v\r\nX-Injected: 1", "bell\u{7}", "del\u{7F}"])
    func illegalFixedValueIsRefusedWithoutEchoingIt(value: String) throws {
        let error = #expect(throws: HeaderError.self) { try DefaultHeaders([.fixed("X-Token", value)]) }
        let description = String(describing: try #require(error))
        #expect(description.contains("X-Token"))
        #expect(!description.contains(value))
    }

    @Test(arguments: ["tab\tinside", "spaces are fine", "ünïcödé", "!#$%&'*+-.^_`|~ and more"])
    func legalValuesAreAccepted(value: String) async throws {
        let sent = try await send(DefaultHeaders([.fixed("X-Value", value)]))
        #expect(sent?.fields["X-Value"] == value)
    }

    @Test func illegalComputedValueFailsTheRequestBeforeAnythingIsSent() async throws {
        let headers = try DefaultHeaders([.computed("X-Trace") { _ in "abc\r\nX-Injected: yes" }])
        await #expect(
            throws: HeaderError.invalidValue(
                name: "X-Trace", reason: "a carriage return (CR) is not allowed in a header value", offset: 3)
        ) {
            _ = try await send(headers)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func headersAreAppliedInOrderSoALaterOneSeesAnEarlierOne() async throws {
        let headers = try DefaultHeaders([
            .fixed("X-First", "1"),
            .computed("X-Second") { request in (request.fields["X-First"] ?? "none") + "+2" },
        ])
        #expect(try await send(headers)?.fields["X-Second"] == "1+2")
    }

    @Test func keepsTheMiddlewareContract() async throws {
        let complete = HTTPRequest(
            url: URL(string: "http://contract.invalid/resource") ?? url,
            fields: [.userAgent: "caller", .acceptEncoding: "gzip"]
        )
        let headers = try DefaultHeaders([
            .fixed("User-Agent", "Shelf/2.3"),
            .fixed("Accept-Encoding", "gzip", policy: .append),
            .computed("user-agent") { _ in "never" },
        ])
        let report = await MiddlewareContract(passThroughRequest: complete).check(headers)
        #expect(report.violations.isEmpty, "\(report)")
    }
}

/// A thread-safe counter for computed headers.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.value }
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}
