package import Foundation

/// HTTP dates (RFC 9110 §5.6.7), read by the layers that compare times: retry's `Retry-After`,
/// the cache's `Date`, `Expires` and `Last-Modified`.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Parses the three HTTP date formats exactly as RFC 9110 §5.6.7 writes them: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`): names as written (case included), single spaces, two-digit
    /// day, hour, minute and second. Anything else is not a date (`nil`), which for `Expires`
    /// means already expired. Hand-written: no formatter state, bounded work on any input.
    ///
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: Now, for an RFC 850 two-digit year: one more than 50 years ahead of it is in the
    ///     past century.
    package static func parse(_ text: String, now: Date = Date()) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 40 else { return nil }
        let fields: (day: Int, month: Int, year: Int, time: (Int, Int, Int))?
        if bytes.count == 29, bytes[3] == UInt8(ascii: ","), name(bytes, 0..<3, in: days) != nil {
            fields = imfFixdate(bytes)
        } else if bytes.count == 24, name(bytes, 0..<3, in: days) != nil {
            fields = asctime(bytes)
        } else if let comma = bytes.firstIndex(of: UInt8(ascii: ",")), name(bytes, 0..<comma, in: longDays) != nil {
            fields = rfc850(Array(bytes[(comma + 1)...]), now: now)
        } else {
            fields = nil
        }
        guard let fields, (1...31).contains(fields.day), (0...23).contains(fields.time.0),
            (0...59).contains(fields.time.1), (0...60).contains(fields.time.2)
        else { return nil }
        let days = daysSinceEpoch(year: fields.year, month: fields.month, day: fields.day)
        let seconds = Double(days) * 86_400 + Double(fields.time.0 * 3_600 + fields.time.1 * 60 + fields.time.2)
        return Date(timeIntervalSince1970: seconds)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ b: [UInt8]) -> (day: Int, month: Int, year: Int, time: (Int, Int, Int))? {
        guard has(b, 4, " "), let day = number(b, 5..<7), has(b, 7, " "), let month = name(b, 8..<11, in: months),
            has(b, 11, " "), let year = number(b, 12..<16), has(b, 16, " "), let time = time(b, at: 17),
            has(b, 25, " "),
            Array(b[26..<29]) == Array("GMT".utf8)
        else { return nil }
        return (day, month + 1, year, time)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day a space and a digit, or two digits)
    private static func asctime(_ b: [UInt8]) -> (day: Int, month: Int, year: Int, time: (Int, Int, Int))? {
        guard has(b, 3, " "), let month = name(b, 4..<7, in: months), has(b, 7, " "),
            let day = has(b, 8, " ") ? number(b, 9..<10) : number(b, 8..<10), has(b, 10, " "),
            let time = time(b, at: 11), has(b, 19, " "), let year = number(b, 20..<24)
        else { return nil }
        return (day, month + 1, year, time)
    }

    /// ` 06-Nov-94 08:49:37 GMT`, after the day's name and comma.
    private static func rfc850(_ b: [UInt8], now: Date) -> (day: Int, month: Int, year: Int, time: (Int, Int, Int))? {
        guard b.count == 23, has(b, 0, " "), let day = number(b, 1..<3), has(b, 3, "-"),
            let month = name(b, 4..<7, in: months), has(b, 7, "-"), let twoDigits = number(b, 8..<10), has(b, 10, " "),
            let time = time(b, at: 11), has(b, 19, " "), Array(b[20..<23]) == Array("GMT".utf8)
        else { return nil }
        // RFC 9110: a two-digit year more than 50 years in the future is the most recent past
        // year with those digits.
        let currentYear =
            Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT") ?? .current, from: now).year
            ?? 2000
        var year = currentYear - currentYear % 100 + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return (day, month + 1, year, time)
    }

    /// `08:49:37` at `start`.
    private static func time(_ b: [UInt8], at start: Int) -> (Int, Int, Int)? {
        guard let hour = number(b, start..<(start + 2)), has(b, start + 2, ":"),
            let minute = number(b, (start + 3)..<(start + 5)), has(b, start + 5, ":"),
            let second = number(b, (start + 6)..<(start + 8))
        else { return nil }
        return (hour, minute, second)
    }

    private static func has(_ b: [UInt8], _ index: Int, _ character: Unicode.Scalar) -> Bool {
        index < b.count && b[index] == UInt8(ascii: character)
    }

    private static func number(_ b: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= b.count, !range.isEmpty else { return nil }
        var value = 0
        for byte in b[range] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func name(_ b: [UInt8], _ range: Range<Int>, in names: [String]) -> Int? {
        guard range.upperBound <= b.count else { return nil }
        let text = String(decoding: b[range], as: UTF8.self)
        return names.firstIndex(of: text)
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), whole seconds down.
    package static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 7 + 3) % 7  // 1970-01-01 was a Thursday (index 3 from Monday)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return
            "\(Self.days[weekday]), \(two(day)) \(months[month - 1]) \(yearText) \(two(seconds / 3_600)):\(two(seconds % 3_600 / 60)):\(two(seconds % 60)) GMT"
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
