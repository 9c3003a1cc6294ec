import Foundation
import HTTPPipeline

/// The cookie-date parser of RFC 6265bis §5.1.1: lenient about order and extra tokens, as
/// servers write `Expires` in many forms; strict about the values (a date that does not exist,
/// such as 31 February, fails).
enum CookieDate {
    /// The date `text` denotes, or `nil` when it is not a cookie-date.
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?
        for token in tokens(Array(text.utf8)) {
            if time == nil, let value = Self.time(token) {
                time = value
            } else if dayOfMonth == nil, let value = digits(token, count: 1...2) {
                dayOfMonth = value
            } else if month == nil, let value = Self.month(token) {
                month = value
            } else if year == nil, let value = digits(token, count: 2...4) {
                year = value
            }
        }
        guard var year, let dayOfMonth, let month, let time else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(dayOfMonth), year >= 1601, time.0 <= 23, time.1 <= 59, time.2 <= 59 else {
            return nil
        }
        guard dayOfMonth <= daysIn(month: month, year: year) else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: year, month: month, day: dayOfMonth)
        return Date(timeIntervalSince1970: Double(days) * 86_400 + Double(time.0 * 3_600 + time.1 * 60 + time.2))
    }

    /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`
    static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `count` DIGITs, then nothing or a non-digit and anything: the number.
    static func digits(_ token: ArraySlice<UInt8>, count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix(while: isDigit)
        guard count.contains(leading.count) else { return nil }
        return leading.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time [ non-digit *OCTET ]`, `hms-time = time-field ":" time-field ":" time-field`,
    /// `time-field = 1*2DIGIT`.
    static func time(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var rest = token[...]
        var fields: [Int] = []
        for index in 0..<3 {
            let field = rest.prefix(while: isDigit)
            guard (1...2).contains(field.count) else { return nil }
            fields.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(field.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (fields[0], fields[1], fields[2])
    }

    /// A token starting with a month's three letters, in any case.
    static func month(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
