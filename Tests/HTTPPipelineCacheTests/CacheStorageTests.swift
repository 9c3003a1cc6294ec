import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineTesting
import Testing

/// RFC 9111 §3: what may be stored.
@Suite struct CacheStorageTests {
    @Test func section3AFreshResponseIsStoredAndTheSecondRequestCostsNoRoundTrip() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("body \(number)", [("Cache-Control", "max-age=60")]) }

        let (first, firstBody) = try await harness.send("a")
        harness.clock.advance(10)
        let (second, secondBody) = try await harness.send("a")

        #expect(first.outcome == .miss)
        #expect(second.outcome == .hit)
        #expect(secondBody == firstBody)
        #expect(second.fields["Age"] == "10")
        #expect(harness.arrivals("a").count == 1)
    }

    @Test(arguments: ["no-store", "max-age=60, no-store", "NO-STORE"])
    func section3NoStoreIsNeverStored(directive: String) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", directive)]) }

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .miss)
        #expect(body == "2")
    }

    @Test func section5_2_2_3MustUnderstandLetsACacheThatKnowsTheStatusIgnoreNoStore() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=60, must-understand, no-store")])
        }

        _ = try await harness.send("a")
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .hit)
        #expect(body == "1")
    }

    @Test func section3_5APrivateCacheStoresAPrivateResponseAndASharedCacheDoesNot() async throws {
        for (mode, expected) in [(CacheOptions.Mode.private, CacheOutcome.hit), (.shared, .miss)] {
            let harness = try CacheHarness(options: CacheOptions(mode: mode))
            harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "private, max-age=60")]) }

            _ = try await harness.send("a")
            let (second, _) = try await harness.send("a")

            #expect(second.outcome == expected, "\(mode)")
        }
    }

    @Test(arguments: [
        ("max-age=60", false), ("public, max-age=60", true), ("s-maxage=60", true),
        ("max-age=60, must-revalidate", true),
    ])
    func section3_5ASharedCacheStoresAnAuthorisedResponseOnlyWhenItSaysSo(directive: String, stored: Bool)
        async throws
    {
        let harness = try CacheHarness(options: CacheOptions(mode: .shared))
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", directive)]) }
        let fields: HTTPFields = [.authorization: "Bearer t"]

        _ = try await harness.send("a", fields: fields)
        let (second, _) = try await harness.send("a", fields: fields)

        #expect((second.outcome == .hit) == stored)
    }

    @Test(arguments: [
        (500, "", false), (500, "max-age=60", true), (404, "", true), (201, "", false), (206, "max-age=60", false),
    ])
    func section3AStatusIsStoredWhenCacheableByDefaultOrGivenExplicitFreshness(
        status: Int, directive: String, stored: Bool
    ) async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            var headers = [
                ("Date", harness.clock.httpDate()), ("Last-Modified", harness.clock.httpDate(offset: -86_400)),
            ]
            if !directive.isEmpty { headers.append(("Cache-Control", directive)) }
            if status == 206 { headers.append(("Content-Range", "bytes 0-0/10")) }
            return .init(status: status, headers: headers, body: Data("\(number)".utf8))
        }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect((second.outcome == .hit) == stored, "\(status) \(directive)")
    }

    @Test func section4_1AResponseThatVariesOnEverythingIsNeverStored() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=60"), ("Vary", "*")]) }

        _ = try await harness.send("a")
        let (second, _) = try await harness.send("a")

        #expect(second.outcome == .miss)
    }

    @Test func section3_3AResponseCutShortIsNeverStored() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            let body = Data(repeating: UInt8(ascii: "x"), count: 1_000)
            let headers = [("Cache-Control", "max-age=60"), ("Date", harness.clock.httpDate())]
            return number == 1
                ? .init(status: 200, headers: headers, body: .abort(after: 100, of: .bytes(body)))
                : .init(status: 200, headers: headers, body: body)
        }

        await #expect(throws: (any Error).self) { try await harness.send("a") }
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .miss)
        #expect(body.count == 1_000)
        #expect(harness.arrivals("a").count == 2)
    }

    @Test func aStreamedBodyIsStoredOnceTheCallerHasReadItAndALongerOneThanTheLimitIsNot() async throws {
        let harness = try CacheHarness(options: CacheOptions(maximumEntryBytes: 1_000))
        for (path, size) in [("small", 900), ("large", 1_100)] {
            harness.route(path) { _, _ in
                let chunks = [Data(repeating: 1, count: size / 2), Data(repeating: 2, count: size - size / 2)]
                return .init(
                    status: 200, headers: [("Cache-Control", "max-age=60"), ("Date", harness.clock.httpDate())],
                    body: .chunked(chunks))
            }
        }

        _ = try await harness.send("small")
        _ = try await harness.send("large")
        let (small, _) = try await harness.send("small")
        let (large, _) = try await harness.send("large")

        #expect(small.outcome == .hit)
        #expect(large.outcome == .miss)
    }
}
