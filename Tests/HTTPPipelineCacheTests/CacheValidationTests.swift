import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineTesting
import Testing

/// RFC 9111 §4.3 (validation), §4.1 (variants), §4.4 (invalidation), and identity.
@Suite struct CacheValidationTests {
    @Test func section4_3_4A304UpdatesTheStoredFieldsAndServesTheStoredBody() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            if request.header("If-None-Match") == "\"v1\"" {
                return harness.status(
                    304, [("ETag", "\"v1\""), ("Cache-Control", "max-age=600"), ("X-Updated", "yes")])
            }
            return harness.ok("original", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("X-Updated", "no")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (validated, body) = try await harness.send("a")
        harness.clock.advance(300)
        let (later, _) = try await harness.send("a")

        #expect(validated.outcome == .revalidated)
        #expect(body == "original")
        #expect(validated.fields["X-Updated"] == "yes")
        #expect(later.outcome == .hit)
        #expect(harness.arrivals("a").count == 2)
    }

    @Test func section4_3_1LastModifiedIsSentAsIfModifiedSince() async throws {
        let harness = try CacheHarness()
        let modified = harness.clock.httpDate(offset: -86_400)
        harness.route("a") { request, _ in
            request.header("If-Modified-Since") == modified
                ? harness.status(304, [("Last-Modified", modified)])
                : harness.ok("x", [("Cache-Control", "max-age=60"), ("Last-Modified", modified)])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (validated, body) = try await harness.send("a")

        #expect(validated.outcome == .revalidated)
        #expect(body == "x")
    }

    @Test func section4_3_4A304ForAnotherRepresentationIsNotAppliedAndTheResourceIsFetchedAgain() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, number in
            if request.header("If-None-Match") != nil { return harness.status(304, [("ETag", "\"other\"")]) }
            return harness.ok("full \(number)", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (second, body) = try await harness.send("a")

        #expect(second.status == 200)
        #expect(body == "full 3")
    }

    @Test func section4_3_4AWeakValidatorMatchesTheStoredResponseByWeakComparison() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            request.header("If-None-Match") == "W/\"v1\""
                ? harness.status(304, [("ETag", "W/\"v1\"")])
                : harness.ok("weak", [("Cache-Control", "max-age=60"), ("ETag", "W/\"v1\"")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (second, body) = try await harness.send("a")

        #expect(second.outcome == .revalidated)
        #expect(body == "weak")
    }

    @Test func section4_3_2TheCallersOwnConditionalRequestPassesThroughAndIts304FreshensTheStore() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            request.header("If-None-Match") == "\"v1\""
                ? harness.status(304, [("ETag", "\"v1\""), ("Cache-Control", "max-age=600")])
                : harness.ok("x", [("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        }

        _ = try await harness.send("a")
        harness.clock.advance(100)
        let (own, _) = try await harness.send("a", fields: [.ifNoneMatch: "\"v1\""])
        let (after, _) = try await harness.send("a")

        #expect(own.status == 304)
        #expect(own.outcome == .bypass)
        #expect(after.outcome == .hit)
    }

    @Test func section4_1VaryKeepsOneVariantPerValueOfTheFieldsItNames() async throws {
        let harness = try CacheHarness()
        harness.route("a") { request, _ in
            harness.ok(
                "lang \(request.header("Accept-Language") ?? "none")",
                [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        }

        _ = try await harness.send("a", fields: [.acceptLanguage: "en"])
        _ = try await harness.send("a", fields: [.acceptLanguage: "fr"])
        let (english, englishBody) = try await harness.send("a", fields: [.acceptLanguage: "en"])
        let (french, frenchBody) = try await harness.send("a", fields: [.acceptLanguage: "fr"])
        let (none, noneBody) = try await harness.send("a")

        #expect(english.outcome == .hit)
        #expect(englishBody == "lang en")
        #expect(french.outcome == .hit)
        #expect(frenchBody == "lang fr")
        #expect(none.outcome == .miss)
        #expect(noneBody == "lang none")
    }

    @Test func section4_1AFieldNamedTwiceInVaryAndValuesThatDifferOnlyInSpacingStillMatch() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            harness.ok("\(number)", [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language, accept-language")])
        }

        _ = try await harness.send("a", fields: [.acceptLanguage: "en,fr"])
        let (second, body) = try await harness.send("a", fields: [.acceptLanguage: "en , fr"])

        #expect(second.outcome == .hit)
        #expect(body == "1")
    }

    @Test func section4AHeadIsAnsweredFromAStoredGet() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, _ in harness.ok("the body", [("Cache-Control", "max-age=60"), ("X-Kind", "stored")]) }

        _ = try await harness.send("a")
        let (head, body) = try await harness.send("a", method: .head)

        #expect(head.outcome == .hit)
        #expect(head.fields["X-Kind"] == "stored")
        #expect(body.isEmpty)
        #expect(harness.arrivals("a", method: "HEAD").isEmpty)
    }

    @Test func section4_4AnUnsafeRequestsSuccessInvalidatesItsURIAndASameOriginLocation() async throws {
        let harness = try CacheHarness()
        for path in ["a", "b", "c"] {
            harness.route(path) { _, number in harness.ok("\(path) \(number)", [("Cache-Control", "max-age=600")]) }
        }
        let elsewhere = "http://elsewhere.invalid/c"
        harness.route("a", method: "POST") { _, _ in
            harness.status(201, [("Location", "/b"), ("Content-Location", elsewhere)])
        }

        for path in ["a", "b", "c"] { _ = try await harness.send(path) }
        _ = try await harness.send("a", method: .post)
        let (a, _) = try await harness.send("a")
        let (b, _) = try await harness.send("b")
        let (c, _) = try await harness.send("c")

        #expect(a.outcome == .miss)
        #expect(b.outcome == .miss)
        #expect(c.outcome == .hit)
    }

    @Test func section4_4AnUnsafeRequestThatFailsInvalidatesNothing() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=600")]) }
        harness.route("a", method: "DELETE") { _, _ in harness.status(500) }

        _ = try await harness.send("a")
        _ = try await harness.send("a", method: .delete)
        let (a, _) = try await harness.send("a")

        #expect(a.outcome == .hit)
    }

    @Test func aPrivateCacheNeverServesOneIdentitysResponseToAnother() async throws {
        let harness = try CacheHarness()
        harness.route("me") { request, _ in
            harness.ok(
                "for \(request.header("Authorization") ?? "nobody")", [("Cache-Control", "private, max-age=600")])
        }

        _ = try await harness.send("me", fields: [.authorization: "Bearer ann"])
        let (ann, annBody) = try await harness.send("me", fields: [.authorization: "Bearer ann"])
        let (bob, bobBody) = try await harness.send("me", fields: [.authorization: "Bearer bob"])
        let (anonymous, anonymousBody) = try await harness.send("me")

        #expect(ann.outcome == .hit)
        #expect(annBody == "for Bearer ann")
        #expect(bob.outcome == .miss)
        #expect(bobBody == "for Bearer bob")
        #expect(anonymous.outcome == .miss)
        #expect(anonymousBody == "for nobody")
    }

    @Test func perCallPoliciesReloadReturnStaleOrAnswer504WithoutTheNetwork() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in harness.ok("\(number)", [("Cache-Control", "max-age=60")]) }

        let (nothing, _) = try await harness.send("a", policy: .returnCachedOnly)
        _ = try await harness.send("a")
        let (reload, reloadBody) = try await harness.send("a", policy: .reloadIgnoringCache)
        harness.clock.advance(600)
        let (stale, staleBody) = try await harness.send("a", policy: .returnCachedElseLoad)
        let (cachedOnly, _) = try await harness.send("a", policy: .returnCachedOnly)

        #expect(nothing.status == 504)
        #expect(reload.outcome == .miss)
        #expect(reloadBody == "2")
        #expect(stale.outcome == .staleHit)
        #expect(staleBody == "2")
        #expect(cachedOnly.outcome == .staleHit)
        #expect(harness.arrivals("a").count == 2)
    }
}

/// Concurrent misses (RFC 9111 §4: a cache may collapse requests for one resource).
@Suite struct CacheCollapsingTests {
    @Test func concurrentMissesForOneResourceSendOneRequestAndShareItsAnswer() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            var response = harness.ok("shared \(number)", [("Cache-Control", "max-age=60")])
            response.delay = .milliseconds(200)
            return response
        }

        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await harness.send("a").1 } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(bodies.count == 20)
        #expect(Set(bodies) == ["shared 1"])
        #expect(harness.arrivals("a").count == 1)
    }

    @Test func concurrentMissesForAResponseThatCannotBeStoredEachGoToTheNetwork() async throws {
        let harness = try CacheHarness()
        harness.route("a") { _, number in
            var response = harness.ok("own \(number)", [("Cache-Control", "no-store")])
            response.delay = .milliseconds(100)
            return response
        }

        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 { group.addTask { try await harness.send("a").1 } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(Set(bodies).count == 5)
        #expect(harness.arrivals("a").count == 5)
    }

    @Test func concurrentMissesForDifferentIdentitiesAreNotCollapsed() async throws {
        let harness = try CacheHarness()
        harness.route("me") { request, _ in
            var response = harness.ok(request.header("Authorization") ?? "", [("Cache-Control", "private, max-age=60")])
            response.delay = .milliseconds(100)
            return response
        }

        async let ann = harness.send("me", fields: [.authorization: "Bearer ann"])
        async let bob = harness.send("me", fields: [.authorization: "Bearer bob"])
        let bodies = try await [ann.1, bob.1]

        #expect(bodies == ["Bearer ann", "Bearer bob"])
    }
}
