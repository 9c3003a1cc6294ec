import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

/// RFC 9111 §5.2.1 (request directives), §5.2.2 (response directives), RFC 5861 and RFC 8246.
@Suite struct CacheDirectiveTests {
    /// A harness whose `a` is fresh for 60 s, with an ETag, and answers a matching
    /// `If-None-Match` with a 304.
    func validatingHarness(_ directive: String = "max-age=60", options: CacheOptions = CacheOptions()) throws
        -> CacheHarness
    {
        let harness = try CacheHarness(options: options)
        harness.route("a") { request, number in
            if request.header("If-None-Match") == "\"v1\"" {
                return harness.status(304, [("ETag", "\"v1\""), ("Cache-Control", directive)])
            }
            return harness.ok("body \(number)", [("Cache-Control", directive), ("ETag", "\"v1\"")])
        }
        return harness
    }

    @Test func section5_2_1_1ARequestMaxAgeOfZeroValidates() async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a", fields: [.cacheControl: "max-age=0"])

        #expect(second.outcome == .revalidated)
        #expect(body == "body 1")
        #expect(harness.arrivals("a").last?.header("If-None-Match") == "\"v1\"")
    }

    @Test func section5_2_1_3MinFreshAsksForThatMuchFreshnessLeft() async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a")
        harness.clock.advance(30)
        let (enough, _) = try await harness.send("a", fields: [.cacheControl: "min-fresh=20"])
        let (notEnough, _) = try await harness.send("a", fields: [.cacheControl: "min-fresh=40"])

        #expect(enough.outcome == .hit)
        #expect(notEnough.outcome == .revalidated)
    }

    @Test func section5_2_1_2MaxStaleAcceptsAStaleResponseWithinItsBound() async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a")
        harness.clock.advance(90)
        let (within, _) = try await harness.send("a", fields: [.cacheControl: "max-stale=40"])
        let (any, _) = try await harness.send("a", fields: [.cacheControl: "max-stale"])
        let (beyond, _) = try await harness.send("a", fields: [.cacheControl: "max-stale=10"])

        #expect(within.outcome == .staleHit)
        #expect(any.outcome == .staleHit)
        #expect(beyond.outcome == .revalidated)
    }

    @Test(arguments: [[HTTPField.Name.cacheControl: "no-cache"], [.pragma: "no-cache"]] as [HTTPFields])
    func section5_2_1_4ARequestNoCacheOrPragmaValidatesAFreshResponse(fields: HTTPFields) async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a", fields: fields)

        #expect(second.outcome == .revalidated)
    }

    @Test func section5_4PragmaIsIgnoredWhenCacheControlIsPresent() async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a", fields: [.pragma: "no-cache", .cacheControl: "max-stale"])

        #expect(second.outcome == .hit)
    }

    @Test func section5_2_1_7OnlyIfCachedAnswers504WhenNothingFits() async throws {
        let harness = try validatingHarness()

        let (nothing, _) = try await harness.send("a", fields: [.cacheControl: "only-if-cached"])
        _ = try await harness.send("a")
        harness.clock.advance(90)
        let (stale, _) = try await harness.send("a", fields: [.cacheControl: "only-if-cached"])

        #expect(nothing.status == 504)
        #expect(stale.status == 504)
        #expect(harness.arrivals("a").count == 1)
    }

    @Test func section5_2_1_5ARequestNoStoreIsServedButNotStored() async throws {
        let harness = try validatingHarness()

        _ = try await harness.send("a", fields: [.cacheControl: "no-store"])
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .miss)
    }

    @Test func section5_2_2_4ANoCacheResponseIsValidatedEveryTime() async throws {
        let harness = try validatingHarness("no-cache")

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .revalidated)
        #expect(body == "body 1")
    }

    @Test func section5_2_2_4AQualifiedNoCacheLeavesItsFieldsOutOfAnUnvalidatedHit() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in
            harness.ok(
                "x",
                [
                    ("Cache-Control", "max-age=60, no-cache=\"Set-Cookie, X-Secret\""), ("Set-Cookie", "s=1"),
                    ("X-Secret", "1"), ("X-Plain", "1"),
                ])
        }

        let (first, _) = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(first.fields["Set-Cookie"] == "s=1")
        #expect(second.outcome == .hit)
        #expect(second.fields["Set-Cookie"] == nil)
        #expect(second.fields["X-Secret"] == nil)
        #expect(second.fields["X-Plain"] == "1")
    }

    @Test func section5_2_2_2MustRevalidateNeverServesStaleAndAnswers504WhenTheOriginCannotBeReached() async throws {
        let harness = try validatingHarness("max-age=60, must-revalidate")

        _ = try await harness.send("a")
        harness.server.stop()
        harness.clock.advance(90)
        let (stale, _) = try await harness.send("a", fields: [.cacheControl: "max-stale"])

        #expect(stale.status == 504)
    }

    @Test func rfc8246AFreshImmutableResponseAnswersAReloadWithoutValidation() async throws {
        let harness = try validatingHarness("max-age=600, immutable")

        _ = try await harness.send("a")
        let (reload, _) = try await harness.send("a", fields: [.cacheControl: "max-age=0"])
        let (forced, _) = try await harness.send("a", fields: [.cacheControl: "no-cache"])

        #expect(reload.outcome == .hit)
        #expect(forced.outcome == .revalidated)
    }

    @Test func rfc5861StaleIfErrorServesTheStoredResponseWhenTheOriginFails() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            number == 1
                ? harness.ok("good", [("Cache-Control", "max-age=60, stale-if-error=120")])
                : harness.status(503)
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (within, body) = try await harness.send("a")
        harness.clock.advance(100)
        let (beyond, _) = try await harness.send("a")

        #expect(within.outcome == .staleHit)
        #expect(body == "good")
        #expect(beyond.status == 503)
    }

    @Test func rfc5861StaleIfErrorAlsoCoversAConnectionThatFails() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in harness.ok("good", [("Cache-Control", "max-age=60, stale-if-error=120")]) }

        _ = try await harness.send("a")
        harness.server.stop()
        harness.clock.advance(100)
        let (stale, body) = try await harness.send("a")

        #expect(stale.outcome == .staleHit)
        #expect(body == "good")
    }

    @Test func rfc5861StaleWhileRevalidateServesStaleAndRevalidatesOnceInTheBackground() async throws {
        let store = MemoryCacheStore()
        let harness = try CacheHarness(options: CacheOptions(store: store, revalidationTransport: CurlTransport()))
        harness.route("a") { _, number in
            harness.ok("body \(number)", [("Cache-Control", "max-age=60, stale-while-revalidate=120")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(90)
        let (stale, staleBody) = try await harness.send("a")
        let key = harness.url("a").absoluteString
        var revalidated = false
        for _ in 0..<6_000 where !revalidated {
            revalidated = await store.entries(forKey: key).first?.body.bufferedData == Data("body 2".utf8)
            if !revalidated { try await Task.sleep(for: .milliseconds(10)) }
        }
        let (next, nextBody) = try await harness.send("a")

        #expect(stale.outcome == .staleHit)
        #expect(staleBody == "body 1")
        #expect(revalidated)
        #expect(next.outcome == .hit)
        #expect(nextBody == "body 2")
        #expect(harness.arrivals("a").count == 2)
    }
}
