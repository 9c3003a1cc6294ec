/// `Set-Cookie` lines Foundation joined into one value with `, `, split again.
///
/// A comma starts a new line where the text after it begins a `name=value` pair (a token, then
/// `=`), unless it is the comma of an `Expires` date (`Expires=Wed, 09 Jun 2021 …`). A cookie
/// value holding `, name=value` of its own is split too: over this transport that cannot be told
/// from two lines.
enum SetCookieLines {
    static func split(_ joined: String) -> [String] {
        guard joined.contains(",") else { return [joined] }
        var lines: [String] = []
        var current = Substring()
        var rest = Substring(joined)
        while let comma = rest.firstIndex(of: ",") {
            let before = current + rest[..<comma]
            let after = rest[rest.index(after: comma)...]
            if startsPair(after), !endsInDateWeekday(before) {
                lines.append(String(before))
                current = ""
                rest = after.drop { $0 == " " || $0 == "\t" }
            } else {
                current = before + ","
                rest = after
            }
        }
        lines.append(String(current + rest))
        return lines
    }

    /// Whether `text` starts (after spaces) with a token followed by `=`, before any `;`.
    private static func startsPair(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "="), !trimmed[..<equals].contains(";") else { return false }
        let name = trimmed[..<equals]
        return !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && scalar.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
            }
    }

    /// Whether `text`'s last attribute is `Expires=` followed by a day's name only: the comma
    /// after it belongs to the date.
    private static func endsInDateWeekday(_ text: Substring) -> Bool {
        let attribute = text.split(separator: ";", omittingEmptySubsequences: false).last ?? ""
        let parts = attribute.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingSpaces().lowercased() == "expires" else { return false }
        return parts[1].trimmingSpaces().allSatisfy(\.isLetter)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
