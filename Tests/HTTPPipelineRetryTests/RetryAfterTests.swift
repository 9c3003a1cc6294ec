import Foundation
import Testing

@testable import HTTPPipelineRetry

@Suite struct RetryAfterTests {
    let reference = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: [("0", 0), ("120", 120), (" 7 ", 7), ("000042", 42)])
    func delaySecondsAreParsed(value: String, seconds: Int) {
        #expect(RetryAfter(value, relativeTo: reference) == .delay(.seconds(seconds)))
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:50:37 GMT",
        "Sunday, 06-Nov-94 08:50:37 GMT",
        "Sun Nov  6 08:50:37 1994",
    ])
    func allThreeHTTPDateFormsAreParsedRelativeToTheReference(value: String) {
        #expect(RetryAfter(value, relativeTo: reference) == .delay(.seconds(60)))
    }

    @Test(arguments: ["99999999999999999999999", "315360001", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func hugeOrFarFutureValuesAreTooLong(value: String) {
        #expect(RetryAfter(value, relativeTo: reference) == .tooLong)
    }

    @Test func dateInThePastMeansNoWait() {
        #expect(RetryAfter("Thu, 01 Jan 1970 00:00:00 GMT", relativeTo: reference) == .delay(.zero))
    }

    @Test(arguments: [
        "", "-5", "1.5", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "0x10", "\u{0}", "1e9",
        String(repeating: "9 ", count: 500),
    ])
    func garbageIsNotAValue(value: String) {
        #expect(RetryAfter(value, relativeTo: reference) == nil)
    }
}
