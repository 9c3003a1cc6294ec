/// An entity tag (RFC 9110 §8.8.3): opaque text, weak or strong.
struct EntityTag: Equatable {
    let opaque: String
    let isWeak: Bool

    /// Reads `"xyz"` or `W/"xyz"`; `nil` for anything else.
    init?(_ text: Substring) {
        var text = text.drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        isWeak = text.hasPrefix("W/")
        if isWeak { text = text.dropFirst(2) }
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        opaque = String(text.dropFirst().dropLast())
        guard !opaque.contains("\"") else { return nil }
    }

    init?(_ text: String?) {
        guard let text else { return nil }
        self.init(Substring(text))
    }

    /// The members of an `If-None-Match` or `If-Match` value: split at commas outside quotes,
    /// trimmed (`*` is one).
    static func list(_ value: String) -> [Substring] {
        var members: [Substring] = []
        var start = value.startIndex
        var quoted = false
        for index in value.indices {
            if value[index] == "\"" {
                quoted.toggle()
            } else if value[index] == ",", !quoted {
                members.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        members.append(value[start...])
        return members.map { member in
            var member = member.drop { $0 == " " || $0 == "\t" }
            while let last = member.last, last == " " || last == "\t" { member = member.dropLast() }
            return member
        }.filter { !$0.isEmpty }
    }

    /// Strong comparison: both strong and the same.
    func strongMatches(_ other: EntityTag) -> Bool { !isWeak && !other.isWeak && opaque == other.opaque }

    /// Weak comparison: the same opaque text, weak or not.
    func weakMatches(_ other: EntityTag) -> Bool { opaque == other.opaque }
}
