/// Typed values keyed by ``HTTPContextKey`` types: what ``HTTPRequestContext`` and
/// ``HTTPResponseContext`` hold. An empty one allocates nothing; the first value set allocates one
/// small array.
@usableFromInline
struct ContextValues: Sendable {
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

    /// The values, in the order they were first set.
    @usableFromInline var entries: [Entry] = []

    @inlinable
    init() {}

    @inlinable
    subscript<Key: HTTPContextKey>(key: Key.Type) -> Key.Value? {
        get {
            let id = ObjectIdentifier(key)
            // By index: comparing a key copies no value.
            for index in entries.indices where entries[index].key == id {
                return entries[index].value as? Key.Value
            }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            if let index = entries.firstIndex(where: { $0.key == id }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: id, value: newValue))
            }
        }
    }

    @inlinable
    var count: Int { entries.count }
}
