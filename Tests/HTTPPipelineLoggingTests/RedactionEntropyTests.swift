import Testing

@testable import HTTPPipelineLogging
@testable import HTTPPipelineRedaction

/// How well random-looking tokens are told from things people and programs spell, measured.
@Suite("Random-looking tokens")
struct RedactionEntropyTests {
    /// A small deterministic generator (SplitMix64), so the rates are the same on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func looksRandom(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer(RandomToken.looksRandom)
    }

    static let alphabets: [(String, String)] = [
        ("base62", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
        ("base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
        ("base64", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
        ("base36", "abcdefghijklmnopqrstuvwxyz0123456789"),
        ("base32", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
    ]

    @Test("Random tokens of 24 characters or more are caught at least 99 times in 100, 32 or more 99.5")
    func randomTokensAreCaught() {
        var generator = Generator(state: 17)
        var table: [String] = []
        for (name, alphabet) in Self.alphabets {
            let characters = Array(alphabet)
            for length in [20, 24, 32, 40] {
                let samples = 1_000
                let caught = (0..<samples).filter { _ in
                    Self.looksRandom(String((0..<length).map { _ in characters.randomElement(using: &generator)! }))
                }.count
                let rate = Double(caught) / Double(samples)
                table.append("\(name) \(length): \(caught)/\(samples)")
                if length >= 32 {
                    #expect(rate >= 0.995, "\(name) \(length): \(rate)")
                } else if length >= 24 {
                    #expect(rate >= 0.99, "\(name) \(length): \(rate)")
                }
            }
        }
        print("random tokens caught — " + table.joined(separator: ", "))
    }

    static let words = [
        "get", "user", "account", "settings", "organization", "report", "final", "draft", "image", "profile", "order",
        "invoice", "payment", "customer", "list", "product", "category", "search", "result", "page", "create",
        "update", "delete", "message", "thread", "comment", "post", "blog", "first", "version", "release", "build",
        "config", "default", "value", "string", "index", "count", "total", "http", "client", "server", "request",
        "response", "error", "warning", "json", "linux", "intent", "succeeded", "event", "subscription", "monthly",
    ]

    @Test("Identifiers, slugs, dates, versions, hashes and ids are never taken for random tokens")
    func controlsAreNotCaught() {
        var generator = Generator(state: 23)
        func word() -> String { Self.words.randomElement(using: &generator)! }
        func capitalized() -> String {
            let word = word()
            return word.prefix(1).uppercased() + word.dropFirst()
        }
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        var controls: [String] = [
            "550e8400-e29b-41d4-a716-446655440000", "33a64df551425fcc55e4d42a148795d9f25f89d4",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "2024-05-01T12-30-45.123Z",
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        ]
        for _ in 0..<400 {
            controls.append(word() + capitalized() + capitalized() + capitalized())
            controls.append((0..<4).map { _ in word() }.joined(separator: "-") + "-\(number(1...2030))")
            controls.append((0..<3).map { _ in word() }.joined(separator: "_") + "_v\(number(1...9))")
            controls.append("\(capitalized())\(capitalized())\(number(2...99))\(capitalized())\(capitalized())")
            controls.append("SKU-\(number(2000...2030))-\(word().uppercased())-\(number(100_000...999_999))")
        }
        let caught = controls.filter(Self.looksRandom)
        print("controls taken for random tokens: \(caught.count)/\(controls.count)")
        #expect(caught.isEmpty, "\(caught.prefix(5))")
    }
}
