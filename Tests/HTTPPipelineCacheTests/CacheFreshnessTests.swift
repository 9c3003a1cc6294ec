import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineTesting
import Testing

/// RFC 9111 §4.2: freshness lifetime and age.
@Suite struct CacheFreshnessTests {
    @Test func section4_2_1AResponseGoesStaleWhenItsMaxAgeHasPassed() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=60")]) }

        _ = try await harness.send("a")
        harness.clock.advance(59)
        let (fresh, _) = try await harness.send("a")
        harness.clock.advance(2)
        let (stale, body) = try await harness.send("a")

        #expect(fresh.outcome == .hit)
        #expect(stale.outcome == .miss)
        #expect(body == "2")
    }

    @Test func section4_2_1SharedMaxAgeRulesASharedCacheAndAPrivateCacheIgnoresIt() async throws {
        for (mode, expected) in [(CacheOptions.Mode.shared, CacheOutcome.hit), (.private, .miss)] {
            let harness = try CacheHarness(options: CacheOptions(mode: mode))
            harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=10, s-maxage=100")]) }

            _ = try await harness.send("a")
            harness.clock.advance(50)
            let (second, _) = try await harness.send("a")

            #expect(second.outcome == expected, "\(mode)")
        }
    }

    @Test func section4_2_1ExpiresCountsFromTheResponsesDate() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            // The origin's clock runs an hour ahead: only Expires − Date counts.
            harness.ok(
                "\(number)",
                [("Date", harness.clock.httpDate(offset: 3_600)), ("Expires", harness.clock.httpDate(offset: 3_630))])
        }

        _ = try await harness.send("a")
        harness.clock.advance(20)
        let (fresh, _) = try await harness.send("a")
        harness.clock.advance(20)
        let (stale, _) = try await harness.send("a")

        #expect(fresh.outcome == .hit)
        #expect(stale.outcome == .miss)
    }

    @Test(arguments: ["0", "not a date", "Thu, 01 Jan 1970 00:00:00 GMT"])
    func section5_3AnInvalidOrPastExpiresMeansStale(expires: String) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Expires", expires)]) }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .miss)
    }

    @Test func section4_2_1MaxAgeWinsOverExpires() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok(
                "\(number)", [("Cache-Control", "max-age=100"), ("Expires", harness.clock.httpDate(offset: 10))])
        }

        _ = try await harness.send("a")
        harness.clock.advance(50)
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .hit)
    }

    @Test func section4_2_2HeuristicFreshnessIsATenthOfTheTimeSinceLastModified() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Last-Modified", harness.clock.httpDate(offset: -10_000))])
        }

        _ = try await harness.send("a")
        harness.clock.advance(999)
        let (fresh, _) = try await harness.send("a")
        harness.clock.advance(2)
        let (stale, _) = try await harness.send("a")

        #expect(fresh.outcome == .hit)
        #expect(stale.outcome == .miss)
    }

    @Test func section4_2_2NoHeuristicForAStatusThatIsNotCacheableByDefault() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            .init(
                status: 500,
                headers: [
                    ("Date", harness.clock.httpDate()), ("Last-Modified", harness.clock.httpDate(offset: -10_000)),
                ],
                body: Data("\(number)".utf8))
        }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .miss)
    }

    @Test func section4_2_3AgeCountsTheAgeTheOriginSentAndTheTimeSinceAndTheFieldIsSetOnAHit() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=60"), ("Age", "30")]) }

        _ = try await harness.send("a")
        harness.clock.advance(20)
        let (fresh, _) = try await harness.send("a")
        harness.clock.advance(11)
        let (stale, _) = try await harness.send("a")

        #expect(fresh.outcome == .hit)
        #expect(fresh.fields["Age"] == "50")
        #expect(stale.outcome == .miss)
    }

    @Test func section4_2_3AnOldDateMakesTheResponseOlderThanItsAgeField() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=60"), ("Date", harness.clock.httpDate(offset: -50))])
        }

        _ = try await harness.send("a")
        let (fresh, _) = try await harness.send("a")
        harness.clock.advance(11)
        let (stale, _) = try await harness.send("a")

        #expect(fresh.fields["Age"] == "50")
        #expect(stale.outcome == .miss)
    }
}
