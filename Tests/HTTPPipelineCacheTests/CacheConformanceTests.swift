import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineTesting
import Testing

/// Cases an independent review found against RFC 9111, RFC 9110 and RFC 9211 (each named by
/// the section it checks), and the cache-tests suite's behaviour where the RFCs require it.
@Suite struct CacheConformanceTests {
    // 1. status-599-must-understand (RFC 9111 §5.2.2.3)
    @Test(arguments: [299, 499, 599])
    func section5_2_2_3MustUnderstandWithAnUnrecognisedStatusIsNotStored(status: Int) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            .init(
                status: status,
                headers: [
                    ("Date", harness.clock.httpDate()),
                    ("Cache-Control", "max-age=3600, no-store, must-understand"),
                ],
                body: Data("\(number)".utf8))
        }

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .miss)
        #expect(body == "2")
        #expect(harness.arrivals("a").count == 2)
    }

    // 2. headers-store-Proxy-Authenticate etc. (RFC 9111 §3.1)
    @Test(arguments: ["Proxy-Authenticate", "Proxy-Authentication-Info", "Proxy-Authorization"])
    func section3_1FieldsSpecificToTheProxyAreNotStored(name: String) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in
            harness.ok("x", [("Cache-Control", "max-age=3600"), (name, "Basic realm=\"proxy\""), ("X-Kept", "1")])
        }

        _ = try await harness.send("a")
        let (hit, _) = try await harness.send("a")

        #expect(hit.outcome == .hit)
        #expect(hit.fields["X-Kept"] == "1")
        #expect(hit.fields[name] == nil)
    }

    // 3. freshness-max-age-space-before-equals / -space-after-equals (RFC 9111 §5.2 grammar)
    @Test(arguments: ["max-age =3600", "max-age= 3600"])
    func section5_2WhitespaceAroundTheEqualsSignIsNotAMaxAge(directive: String) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", directive)]) }

        _ = try await harness.send("a")
        harness.clock.advance(10)
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .miss)
        #expect(body == "2")
    }

    // 4. stale-close-s-maxage=2 family (RFC 9111 §5.2.2.10: s-maxage implies proxy-revalidate)
    @Test func section5_2_2_10ASharedCacheNeverServesAStaleSMaxageResponseForMaxStale() async throws {
        let harness = try CacheHarness(options: CacheOptions(mode: .shared))
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "s-maxage=10")]) }

        _ = try await harness.send("a")
        harness.clock.advance(20)
        let (second, body) = try await harness.send("a", fields: [.cacheControl: "max-stale=1000"])

        #expect(second.outcome == .miss)
        #expect(body == "2")
    }

    @Test func section5_2_2_10ASharedCacheNeverServesAStaleSMaxageResponseOnError() async throws {
        let harness = try CacheHarness(options: CacheOptions(mode: .shared))
        harness.route("a") { _, number in
            number == 1
                ? harness.ok("stored", [("Cache-Control", "s-maxage=10, stale-if-error=600")])
                : harness.status(503)
        }

        _ = try await harness.send("a")
        harness.clock.advance(20)
        let (second, _) = try await harness.send("a")

        #expect(second.status == 503)
    }

    // 5. freshness-expires-invalid-* (RFC 9110 §5.6.7, RFC 9111 §5.3)
    @Test(arguments: [
        "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT",
        "Thu, 8 Aug 2050 02:01:18 GMT",
    ])
    func section5_3AnExpiresThatIsNotAnHTTPDateIsInThePast(expires: String) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Expires", expires)]) }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .miss)
    }

    // 5b. RFC 9110 §5.6.7 two-digit years (rfc850-date)
    @Test func rfc9110_5_6_7ATwoDigitYearLessThanFiftyYearsAheadIsInThisCentury() async throws {
        let harness = try CacheHarness()
        // The test clock is Nov 2023: '72 is 2072 (49 years ahead), not 1972.
        harness.route("a") { _, number in harness.ok("\(number)", [("Expires", "Thursday, 18-Aug-72 02:01:18 GMT")]) }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .hit)
    }

    // 6. conditional-etag-strong-respond (RFC 9111 §4.3.2 SHOULD)
    @Test func section4_3_2AFreshStoredResponseAnswersAMatchingIfNoneMatchWithA304() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=3600"), ("ETag", "\"abcdef\"")])
        }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a", fields: [.ifNoneMatch: "\"abcdef\""])

        #expect(second.status == 304)
        #expect(second.fields["ETag"] == "\"abcdef\"")
        #expect(harness.arrivals("a").count == 1)
    }

    // 7. only-if-cached (RFC 9111 §5.2.1.7) with a conditional request
    @Test func section5_2_1_7OnlyIfCachedNeverGoesToTheNetworkEvenWhenConditional() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=3600")]) }

        let (response, _) = try await harness.send(
            "a", fields: [.cacheControl: "only-if-cached", .ifNoneMatch: "\"v1\""])

        #expect(response.status == 504)
        #expect(harness.arrivals("a").isEmpty)
    }

    // 8a. RFC 9110 §6.6.1: a cached response without Date gets the time it was received
    @Test func rfc9110_6_6_1AStoredResponseWithoutDateIsServedWithTheTimeItWasReceived() async throws {
        let harness = try CacheHarness()
        let received = harness.clock.httpDate()
        harness.route("a") { _, number in
            .init(status: 200, headers: [("Cache-Control", "max-age=3600")], body: Data("\(number)".utf8))
        }

        _ = try await harness.send("a")
        harness.clock.advance(5)
        let (hit, _) = try await harness.send("a")

        #expect(hit.outcome == .hit)
        #expect(hit.fields["Date"] == received)
    }

    // 8b. RFC 9110 §6.6.1 + RFC 9111 §3.2/§4.3.4: a 304 without Date freshens the stored response
    @Test func section4_3_4A304WithoutDateFreshensTheStoredResponse() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            if request.header("If-None-Match") == "\"v1\"" {
                return .init(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")], body: Data())
            }
            return harness.ok("body", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (validated, _) = try await harness.send("a")
        harness.clock.advance(10)
        let (after, _) = try await harness.send("a")

        #expect(validated.outcome == .revalidated)
        #expect(validated.fields["Age"] == "0")
        #expect(after.outcome == .hit)
        #expect(harness.arrivals("a").count == 2)
    }

    // 9. RFC 9211 §2.2 fwd parameter values
    @Test func rfc9211_2_2FwdSaysWhyTheRequestWentForward() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, number in
            request.header("If-None-Match") == "\"v1\""
                ? harness.status(304, [("ETag", "\"v1\""), ("Cache-Control", "max-age=3600")])
                : harness.ok(
                    "\(number)",
                    [("Cache-Control", "max-age=3600"), ("ETag", "\"v1\""), ("Vary", "Accept-Language")])
        }
        harness.route("a", method: "POST") { _, _ in harness.status(500) }

        _ = try await harness.send("a", fields: [.acceptLanguage: "en"])
        let (forced, _) = try await harness.send("a", fields: [.acceptLanguage: "en", .cacheControl: "no-cache"])
        let (otherVariant, _) = try await harness.send("a", fields: [.acceptLanguage: "fr"])
        let (post, _) = try await harness.send("a", method: .post)

        #expect(forced.fields["Cache-Status"]?.contains("fwd=request") == true)
        #expect(otherVariant.fields["Cache-Status"]?.contains("fwd=vary-miss") == true)
        #expect(post.fields["Cache-Status"]?.contains("fwd=method") == true)
    }

    // 10. no-cache + stale-if-error (RFC 9111 §4.2.4, §5.2.2.4)
    @Test func section5_2_2_4ANoCacheResponseIsNotServedUnvalidatedWhenTheOriginFails() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            number == 1
                ? harness.ok("stored", [("Cache-Control", "no-cache, stale-if-error=600"), ("ETag", "\"v1\"")])
                : harness.status(503)
        }

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a")

        #expect(second.status == 503)
        #expect(body != "stored")
    }

    // 11. head-200-freshness-update / head-200-update (RFC 9111 §4.3.5 SHOULD)
    @Test func section4_3_5AHead200FreshensAndUpdatesTheStoredGet() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=10"), ("ETag", "\"v1\""), ("Template-A", "1")])
        }
        harness.route("a", method: "HEAD") { _, _ in
            harness.status(200, [("Cache-Control", "max-age=1000"), ("ETag", "\"v1\""), ("Template-A", "2")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(20)
        _ = try await harness.send("a", method: .head)
        let (get, body) = try await harness.send("a")

        #expect(get.outcome == .hit)
        #expect(get.fields["Template-A"] == "2")
        #expect(body == "1")
    }

    @Test func section5_1A304WithoutAgeDropsTheStoredAgeSoTheFreshenedResponseIsNotAgedTwice() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            if request.header("If-None-Match") == "\"v1\"" {
                return harness.status(304, [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
            }
            return harness.ok("body", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("Age", "30")])
        }
        _ = try await harness.send("a")
        harness.clock.advance(40)
        let (validated, _) = try await harness.send("a")
        harness.clock.advance(40)
        let (after, _) = try await harness.send("a")
        #expect(validated.outcome == .revalidated)
        #expect(validated.fields["Age"] == "0")
        #expect(after.outcome == .hit)
    }

    @Test func section5_2_1_5ARequestsNoStoreKeepsItsValidationOutOfTheStore() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            if request.header("If-None-Match") == "\"v1\"" {
                return harness.status(304, [("ETag", "\"v1\""), ("Cache-Control", "max-age=600"), ("X", "new")])
            }
            return harness.ok("body", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("X", "old")])
        }
        _ = try await harness.send("a")
        harness.clock.advance(100)
        _ = try await harness.send("a", fields: [.cacheControl: "no-store"])
        let (after, _) = try await harness.send("a")
        #expect(after.outcome != .hit)
        #expect(after.fields["X"] != "new" || after.outcome == .revalidated)
    }

}

/// The review's controls: parsing, heuristics, invalidation, Vary, updates and request
/// directives the RFCs settle.
@Suite struct CacheConformanceControlTests {
    @Test(arguments: [
        ("extension=\"max-age=3600\", max-age=1", false), ("max-age=1, extension=\"max-age=3600\"", false),
        ("max-age=003600", true), ("max-age='3600'", false), ("max-age=3600.0", false), ("max-age=-3600", false),
        ("MaX-aGe=3600", true), ("max-age=99999999999", true), ("foobar, max-age=3600", true),
        ("max-age", false), ("max-age=3600, max-age=1", false),
    ])
    func section5_2CacheControlIsParsedAsTheGrammarSays(directive: String, cached: Bool) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", directive)]) }
        _ = try await harness.send("a")
        harness.clock.advance(5)
        let (second, _) = try await harness.send("a")
        #expect((second.outcome == .hit) == cached, "\(directive)")
    }

    @Test(arguments: [
        ("abc", true), ("-7200", true), ("7200.0", true), ("7200,0", false), ("0,7200", true), ("0, 0", true),
        ("99999999999", false),
    ])
    func section5_1AnInvalidAgeIsIgnoredAndAHugeOneCapped(age: String, cached: Bool) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=3600"), ("Age", age)]) }
        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")
        #expect((second.outcome == .hit) == cached, "\(age)")
    }

    @Test func section5_1OfTwoAgeLinesTheFirstCounts() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            .init(
                status: 200,
                headers: [
                    ("Date", harness.clock.httpDate()), ("Cache-Control", "max-age=3600"), ("Age", "7200"),
                    ("Age", "0"),
                ], body: Data("\(number)".utf8))
        }
        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")
        #expect(second.outcome == .miss)
    }

    @Test(arguments: [
        ("Thursday, 18-Aug-50 02:01:18 GMT", true), ("Thu Aug 18 02:01:18 2050", true),
        ("Thu Aug  8 02:01:18 2050", true), ("Thu, 18 Aug 2050 02:01:18 UTC", false),
        ("Thu, 18-Aug-2050 02:01:18 GMT", false), ("Thu, 18 Aug 2050 02.01.18 GMT", false),
    ])
    func section5_3ExpiresIsReadAsAnHTTPDateOrTakenAsPast(expires: String, cached: Bool) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Expires", expires)]) }
        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")
        #expect((second.outcome == .hit) == cached, "\(expires)")
    }

    @Test(arguments: [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501, 201, 302, 403, 500, 503])
    func section4_2_2StatusesCacheableByDefaultAreReusedHeuristically(status: Int) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            .init(
                status: status,
                headers: [
                    ("Date", harness.clock.httpDate()), ("Last-Modified", harness.clock.httpDate(offset: -86_400)),
                ], body: status == 204 ? Data() : Data("\(number)".utf8))
        }
        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")
        let expected = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501].contains(status)
        #expect((second.outcome == .hit) == expected, "\(status)")
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "M-SEARCH"])
    func section4_4UnsafeMethodsInvalidateTheURIAndItsLocations(method: String) async throws {
        let harness = try CacheHarness()
        for path in ["a", "location_target", "content_location_target"] {
            harness.route(path) { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=600")]) }
        }
        harness.route("a", method: method) { _, _ in
            harness.status(200, [("Location", "location_target"), ("Content-Location", "content_location_target")])
        }
        for path in ["a", "location_target", "content_location_target"] { _ = try await harness.send(path) }
        _ = try await harness.send("a", method: HTTPMethod(rawValue: method))
        for path in ["a", "location_target", "content_location_target"] {
            let (r, _) = try await harness.send(path)
            #expect(r.outcome == .miss, "\(method) \(path)")
        }
    }

    @Test func section4_1VaryStarNeverMatchesAndAFieldMissingOnBothSidesDoes() async throws {
        let harness = try CacheHarness()
        harness.route("s") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=600"), ("Vary", ", *")]) }
        harness.route("m") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=600"), ("Vary", "FOO, Bar")])
        }
        _ = try await harness.send("s")
        let (s, _) = try await harness.send("s")
        _ = try await harness.send("m", fields: [HTTPField.Name("foo")!: "1"])
        let (m, _) = try await harness.send("m", fields: [HTTPField.Name("Foo")!: "1"])
        let (m2, _) = try await harness.send("m", fields: [HTTPField.Name("Foo")!: "1", HTTPField.Name("Bar")!: "x"])
        #expect(s.outcome == .miss)
        #expect(m.outcome == .hit)
        #expect(m2.outcome == .miss)
    }

    @Test func section3_2A304KeepsContentLengthAndUpdatesTheOtherFields() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            if request.header("If-None-Match") == "\"v1\"" {
                return harness.status(
                    304,
                    [
                        ("ETag", "\"v1\""), ("Cache-Control", "max-age=3600"), ("Content-Length", "10"),
                        ("Content-Type", "text/plain;charset=utf-8"), ("Test-Header", "B"),
                    ])
            }
            return harness.ok(
                "12345",
                [
                    ("Cache-Control", "max-age=2"), ("ETag", "\"v1\""), ("Content-Type", "text/plain"),
                    ("Test-Header", "A"),
                ])
        }
        _ = try await harness.send("a")
        harness.clock.advance(5)
        let (v, body) = try await harness.send("a")
        let (h, _) = try await harness.send("a")
        #expect(v.outcome == .revalidated)
        #expect(body == "12345")
        #expect(h.outcome == .hit)
        #expect(h.fields["Content-Length"] == "5")
        #expect(h.fields["Test-Header"] == "B")
        #expect(h.fields["Content-Type"] == "text/plain;charset=utf-8")
    }

    @Test func section3_1FieldsConnectionNamesAreNotStored() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in
            harness.ok(
                "x", [("Cache-Control", "max-age=600"), ("Connection", "a, b"), ("a", "1"), ("b", "2"), ("c", "3")])
        }
        _ = try await harness.send("a")
        let (h, _) = try await harness.send("a")
        #expect(h.outcome == .hit)
        #expect(h.fields["a"] == nil)
        #expect(h.fields["b"] == nil)
        #expect(h.fields["c"] == "3")
    }

    @Test func section5_2_2_8MustRevalidateAndProxyRevalidateInASharedCache() async throws {
        let harness = try CacheHarness(options: CacheOptions(mode: .shared))
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=10, proxy-revalidate")]) }
        _ = try await harness.send("a")
        harness.clock.advance(20)
        let (r, _) = try await harness.send("a", fields: [.cacheControl: "max-stale"])
        #expect(r.outcome == .miss)
    }

    @Test func section5_2_1RequestMaxAgeAndMinFreshCountTheAge() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=3600"), ("Age", "1800")])
        }
        _ = try await harness.send("a")
        let (r1, _) = try await harness.send("a", fields: [.cacheControl: "max-age=600"])
        let (r2, _) = try await harness.send("a", fields: [.cacheControl: "min-fresh=2000"])
        #expect(r1.outcome == .miss)
        #expect(r2.outcome == .miss)
    }

    @Test func section5_2_2_4QualifiedNoCacheFieldsAreLeftOutOfHits() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in
            .init(
                status: 200,
                headers: [
                    ("Date", harness.clock.httpDate()), ("Cache-Control", "no-cache=\"a\""), ("a", "1"), ("b", "2"),
                    ("Cache-Control", "max-age=3600"), ("Expires", harness.clock.httpDate(offset: 100)),
                ], body: Data("x".utf8))
        }
        _ = try await harness.send("a")
        harness.clock.advance(3)
        let (h, _) = try await harness.send("a")
        #expect(h.outcome == .hit)
        #expect(h.fields["a"] == nil)
        #expect(h.fields["b"] == "2")
        #expect(h.fields["Age"] == "3")
    }
}
