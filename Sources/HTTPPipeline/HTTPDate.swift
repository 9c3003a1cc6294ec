package import Foundation

/// HTTP dates (RFC 9110 §5.6.7), read by the layers that compare times: retry's `Retry-After`,
/// the cache's `Date`, `Expires` and `Last-Modified`.
package enum HTTPDate {
    /// Parses the three HTTP date formats (RFC 9110 §5.6.7): IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`). Hand-written: no formatter state, bounded work on any input.
    package static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: String?
        switch parts.count {
        case 6 where parts[5] == "GMT":  // IMF-fixdate
            day = Int(parts[1])
            month = monthNumber(parts[2])
            year = Int(parts[3])
            time = parts[4]
        case 4 where parts[3] == "GMT":  // RFC 850
            let date = parts[1].split(separator: "-").map(String.init)
            guard date.count == 3, let twoDigits = Int(date[2]), date[2].count == 2 else { return nil }
            day = Int(date[0])
            month = monthNumber(date[1])
            time = parts[2]
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            year = twoDigits < 70 ? 2000 + twoDigits : 1900 + twoDigits
        case 5:  // asctime
            month = monthNumber(parts[1])
            day = Int(parts[2])
            time = parts[3]
            year = Int(parts[4])
        default:
            return nil
        }
        guard let day, let month, let year, let time, (1...31).contains(day), (1...9999).contains(year) else {
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else {
            return nil
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Double(days) * 86_400 + Double(clock[0] * 3_600 + clock[1] * 60 + clock[2])
        return Date(timeIntervalSince1970: seconds)
    }

    private static func monthNumber(_ name: String) -> Int? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return months.firstIndex(of: name).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
