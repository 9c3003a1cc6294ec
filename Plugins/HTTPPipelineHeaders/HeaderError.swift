/// A header name or value that is not legal HTTP, refused before anything is sent.
///
/// Its description names the header and what is wrong, never the value itself: a refused value
/// may be a secret.
public struct HeaderError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidName, invalidValue
    }

    private let code: Code
    /// The header's name, as given.
    public let name: String
    /// What is wrong, in words.
    public let reason: String
    /// The UTF-8 byte offset of the first byte a value must not hold; `nil` for a bad name.
    public let offset: Int?

    private init(_ code: Code, name: String, reason: String, offset: Int?) {
        self.code = code
        self.name = name
        self.reason = reason
        self.offset = offset
    }

    /// The name is empty or holds a character outside the HTTP token alphabet.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - reason: What is wrong with it.
    /// - Returns: The error.
    public static func invalidName(_ name: String, reason: String) -> HeaderError {
        HeaderError(.invalidName, name: name, reason: reason, offset: nil)
    }

    /// The value of header `name` holds a character HTTP forbids (CR, LF, NUL, another control
    /// character), at the given UTF-8 byte offset.
    ///
    /// - Parameters:
    ///   - name: The header's name.
    ///   - reason: Which character.
    ///   - offset: Where, in UTF-8 bytes.
    /// - Returns: The error.
    public static func invalidValue(name: String, reason: String, offset: Int) -> HeaderError {
        HeaderError(.invalidValue, name: name, reason: reason, offset: offset)
    }

    /// Whether the name, rather than a value, is what is wrong.
    public var isInvalidName: Bool { code == .invalidName }

    public var description: String {
        switch code {
        case .invalidName:
            "invalid header name \(HeaderGrammar.printable(name)): \(reason)"
        case .invalidValue:
            "invalid value for header \(HeaderGrammar.printable(name)): \(reason) at byte \(offset ?? 0)"
        }
    }
}
