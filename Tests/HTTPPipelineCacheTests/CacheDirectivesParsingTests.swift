import Foundation
import HTTPPipeline
import Testing

@testable import HTTPPipelineCache

/// RFC 9111 §5.2 and §1.2.2: reading `Cache-Control`.
@Suite struct CacheDirectivesParsingTests {
    func parse(_ lines: String...) -> CacheDirectives {
        var fields = HTTPFields()
        for line in lines { fields.append(HTTPField(name: .cacheControl, value: line)) }
        return CacheDirectives(fields)
    }

    @Test func namesAreCaseInsensitiveAndLinesCombine() {
        let directives = parse("Max-Age=60, PRIVATE", "Must-Revalidate")

        #expect(directives.maxAge == 60)
        #expect(directives.isPrivate)
        #expect(directives.mustRevalidate)
    }

    @Test func quotedArgumentsMayHoldCommas() {
        let directives = parse(#"no-cache="Set-Cookie, X-A", max-age="30""#)

        #expect(directives.noCacheFields == ["set-cookie", "x-a"])
        #expect(!directives.noCache)
        #expect(directives.maxAge == 30)
    }

    @Test func section1_2_2ADeltaPastTwoToTheThirtyFirstIsTwoToTheThirtyFirst() {
        #expect(parse("max-age=99999999999999999999999").maxAge == 2_147_483_648)
    }

    @Test(arguments: ["max-age=-1", "max-age=1.5", "max-age=", "max-age=abc", "max-age=10, max-age=20"])
    func section4_2_1AnInvalidOrConflictingMaxAgeMeansStale(line: String) {
        #expect(parse(line).maxAge == 0)
    }

    @Test func aRepeatedMaxAgeWithTheSameValueStands() {
        #expect(parse("max-age=10", "max-age=10").maxAge == 10)
    }

    @Test func maxStaleWithoutAValueAcceptsAnyStaleness() {
        #expect(parse("max-stale").maxStale == .any)
        #expect(parse("max-stale=5").maxStale == .seconds(5))
        #expect(parse("max-stale=x").maxStale == .seconds(0))
    }

    @Test func unknownDirectivesAreIgnored() {
        let directives = parse("community=\"UCI\", max-age=5, x-ext")

        #expect(directives.maxAge == 5)
    }
}
