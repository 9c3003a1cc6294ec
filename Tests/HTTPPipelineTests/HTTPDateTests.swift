import Foundation
import HTTPPipeline
import Testing

/// HTTP dates as RFC 9110 §5.6.7 writes them, and nothing looser.
@Suite struct HTTPDateTests {
    static let sunday = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func rfc9110Section5_6_7AllThreeFormatsName(text: String) {
        #expect(HTTPDate.parse(text, now: Date(timeIntervalSince1970: 1_700_000_000)) == Self.sunday)
    }

    @Test(arguments: [
        "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 32 Nov 1994 08:49:37 GMT", "0", "", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT ",
    ])
    func anythingElseIsNotADate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func anRFC850YearMoreThanFiftyYearsAheadIsInThePastCentury() throws {
        let now = try #require(HTTPDate.parse("Wed, 15 Nov 2023 00:00:00 GMT"))
        let ahead = HTTPDate.parse("Thursday, 18-Aug-72 02:01:18 GMT", now: now)
        let behind = HTTPDate.parse("Thursday, 18-Aug-99 02:01:18 GMT", now: now)

        #expect(ahead.map(HTTPDate.format) == "Thu, 18 Aug 2072 02:01:18 GMT")
        #expect(behind.map(HTTPDate.format) == "Wed, 18 Aug 1999 02:01:18 GMT")
    }

    @Test func aFormattedDateIsAnIMFFixdateThatParsesBack() {
        #expect(HTTPDate.format(Self.sunday) == "Sun, 06 Nov 1994 08:49:37 GMT")
        for seconds in stride(from: -86_400 * 400, to: 4_000_000_000, by: 7_777_777) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
        }
    }
}
