import Foundation
import Testing

@testable import HTTPPipelineCookies

/// RFC 6265bis §5.1.1: the cookie-date parser, from the http-state suite's dates and the
/// draft's own rules.
@Suite struct CookieDateTests {
    static let valid: [(String, String)] = [
        ("Mon, 10-Dec-2007 17:02:24 GMT", "2007-12-10 17:02:24"),
        ("Thursday, 01-Jan-1970 00:00:00 GMT", "1970-01-01 00:00:00"),
        ("Mon Dec 10 16:32:30 2007 GMT", "2007-12-10 16:32:30"),
        ("Wednesday, 01-Jan-10 00:00:00 GMT", "2010-01-01 00:00:00"),
        ("Mon, 10-Dec-07 20:35:03 GMT", "2007-12-10 20:35:03"),
        ("Thu, 01-Jan-70 00:00:01 GMT", "1970-01-01 00:00:01"),
        ("Thu, 01-Jan-69 00:00:01 GMT", "2069-01-01 00:00:01"),
        ("Thu, 01-Jan-99 00:00:01 GMT", "1999-01-01 00:00:01"),
        ("Thu, 31 Dec 23:55:55 2037 GMT", "2037-12-31 23:55:55"),
        ("Wed Dec 12 2007 08:44:07 GMT-0500 (EST)", "2007-12-12 08:44:07"),
        ("Wednesday, 01-Jan-10 0:0:00 GMT", "2010-01-01 00:00:00"),
        ("Thu, 10 Dec 2009 13:57:2 GMT", "2009-12-10 13:57:02"),
        ("Wed, 09 JUNE 2021 10:18:14.123 GMT", "2021-06-09 10:18:14"),
        ("29 Feb 2024 00:00:00", "2024-02-29 00:00:00"),
        ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06 08:49:37"),
        ("Thu, 01 Jan 070 00:00:00", "1970-01-01 00:00:00"),
    ]

    @Test(arguments: valid)
    func section5_1_1ADateInAnyOrderAndFormParses(text: String, expected: String) {
        #expect(CookieDate.parse(text).map(Self.format) == expected)
    }

    @Test(arguments: [
        "Mon, 01-Jan-2011 00: 00:00 GMT", "Sat, 01 Jan 1600 00:00:00 GMT", "Sat, 01 Jan 2000 24:00:00 GMT",
        "Sat, 01 Jan 2000 10:60:00 GMT", "Sat, 01 Jan 2000 10:00:60 GMT", "Wed, 32 Jan 2020 10:00:00 GMT",
        "Wed, 00 Jan 2020 10:00:00 GMT", "Fri, 31 Feb 2025 10:00:00 GMT", "29 Feb 2023 00:00:00",
        "Wed, 09 Jun 2021 GMT", "09 Jun 10:18:14", "tomorrow", "", "Wed, 09 Jun 12345 10:18:14 GMT",
        "Wed, 100 Jun 2021 10:18:14 GMT", "Wed, 09 Jun 2021 10:18:145 GMT",
    ])
    func section5_1_1AnythingElseFails(text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}
