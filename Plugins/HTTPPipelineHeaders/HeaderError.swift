/// A header name or value that is not legal HTTP, refused before anything is sent.
///
/// Its description names the header and what is wrong, never the value itself: a refused value
/// may be a secret.
public enum HeaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is empty or holds a character outside the HTTP token alphabet.
    case invalidName(String, reason: String)
    /// The value of header `name` holds a character HTTP forbids (CR, LF, NUL, another control
    /// character), at the given UTF-8 byte offset.
    case invalidValue(name: String, reason: String, offset: Int)

    public var description: String {
        switch self {
        case .invalidName(let name, let reason):
            "invalid header name \(HeaderGrammar.printable(name)): \(reason)"
        case .invalidValue(let name, let reason, let offset):
            "invalid value for header \(HeaderGrammar.printable(name)): \(reason) at byte \(offset)"
        }
    }
}
