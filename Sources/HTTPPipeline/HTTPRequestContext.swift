/// A key of the per-request context: the key is the type itself, and `Value` is what it holds.
///
/// Declare one per setting your middleware reads, in your own module, so keys never collide:
///
/// ```swift
/// enum SkipRetry: HTTPContextKey {
///     typealias Value = Bool
/// }
///
/// var context = HTTPRequestContext()
/// context[SkipRetry.self] = true
/// let skips = context[SkipRetry.self] ?? false
/// ```
public protocol HTTPContextKey {
    /// What the key holds.
    associatedtype Value: Sendable
}

/// Typed values that travel with one request through every layer and every attempt: per-call
/// settings (no retry for this call, this timeout) and what one layer tells another.
///
/// Keyed by type (``HTTPContextKey``), like tower's `Extensions`. The first two values live
/// inline, so a request with one or two settings allocates nothing for them; passing an empty
/// context costs nothing measurable (Documentation/CoreV2.md).
public struct HTTPRequestContext: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let key: ObjectIdentifier
        @usableFromInline var value: any Sendable

        @inlinable
        init(key: ObjectIdentifier, value: any Sendable) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var first: Entry?
    @usableFromInline var second: Entry?
    @usableFromInline var rest: [Entry] = []

    /// An empty context.
    @inlinable
    public init() {}

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    ///
    /// - Parameter key: The key type.
    @inlinable
    public subscript<Key: HTTPContextKey>(key: Key.Type) -> Key.Value? {
        get {
            let id = ObjectIdentifier(key)
            if let first, first.key == id { return first.value as? Key.Value }
            if let second, second.key == id { return second.value as? Key.Value }
            for entry in rest where entry.key == id { return entry.value as? Key.Value }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            if first?.key == id {
                first = newValue.map { Entry(key: id, value: $0) }
            } else if second?.key == id {
                second = newValue.map { Entry(key: id, value: $0) }
            } else if let index = rest.firstIndex(where: { $0.key == id }) {
                if let newValue { rest[index].value = newValue } else { rest.remove(at: index) }
            } else if let newValue {
                let entry = Entry(key: id, value: newValue)
                if first == nil {
                    first = entry
                } else if second == nil {
                    second = entry
                } else {
                    rest.append(entry)
                }
            }
        }
    }

    /// How many values the context holds.
    @inlinable
    public var count: Int {
        (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + rest.count
    }
}
