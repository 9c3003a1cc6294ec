/// Typed values that travel back up with one response: what a layer or the transport tells the
/// layers outside it and the caller about how the response came to be (which cookies it set or
/// refused, the transfer's timings).
///
/// Keyed by type (``HTTPContextKey``), as ``HTTPRequestContext`` is; a layer declares its keys in
/// its own module and offers a typed property over them:
///
/// ```swift
/// enum ServedFromMirror: HTTPContextKey {
///     typealias Value = Bool
/// }
///
/// var response = HTTPResponse(status: 200)
/// response.context[ServedFromMirror.self] = true
/// print(response.context[ServedFromMirror.self] ?? false)   // true
/// ```
///
/// A layer that makes a new response from another's (a decoder, a cache) keeps its context.
public struct HTTPResponseContext: Sendable {
    @usableFromInline var values = ContextValues()

    /// An empty context.
    @inlinable
    public init() {}

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    ///
    /// - Parameter key: The key type.
    @inlinable
    public subscript<Key: HTTPContextKey>(key: Key.Type) -> Key.Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// How many values the context holds.
    @inlinable
    public var count: Int { values.count }
}
