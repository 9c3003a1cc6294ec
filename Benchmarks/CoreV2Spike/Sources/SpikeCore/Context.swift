/// A key of the per-request context: the type is the key, `Value` what it stores.
public protocol ContextKey {
    associatedtype Value: Sendable
}

public protocol ContextStorage: Sendable {
    init()
    subscript<K: ContextKey>(key: K.Type) -> K.Value? { get set }
}

/// 5a. `[ObjectIdentifier: any Sendable]`.
public struct DictionaryContext: ContextStorage {
    @usableFromInline var storage: [ObjectIdentifier: any Sendable]
    @inlinable public init() { storage = [:] }
    @inlinable
    public subscript<K: ContextKey>(key: K.Type) -> K.Value? {
        get { storage[ObjectIdentifier(key)] as? K.Value }
        set { storage[ObjectIdentifier(key)] = newValue }
    }
}

/// 5b. A heap array of (key, value), linear search.
public struct ArrayContext: ContextStorage {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var key: ObjectIdentifier
        @usableFromInline var value: any Sendable
        @inlinable init(key: ObjectIdentifier, value: any Sendable) {
            self.key = key
            self.value = value
        }
    }
    @usableFromInline var storage: [Entry]
    @inlinable public init() { storage = [] }
    @inlinable
    public subscript<K: ContextKey>(key: K.Type) -> K.Value? {
        get {
            let id = ObjectIdentifier(key)
            for entry in storage where entry.key == id { return entry.value as? K.Value }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            if let i = storage.firstIndex(where: { $0.key == id }) {
                if let newValue { storage[i].value = newValue } else { storage.remove(at: i) }
            } else if let newValue {
                storage.append(Entry(key: id, value: newValue))
            }
        }
    }
}

/// 5c. Small inline storage: two slots in the struct itself (no heap for ≤ 2 keys), then an
/// overflow array. Hand-rolled rather than `InlineArray`, which needs macOS 26 on Darwin.
public struct InlineContext: ContextStorage {
    @usableFromInline var k0: ObjectIdentifier?
    @usableFromInline var v0: (any Sendable)?
    @usableFromInline var k1: ObjectIdentifier?
    @usableFromInline var v1: (any Sendable)?
    @usableFromInline var overflow: ArrayContext
    @inlinable public init() { overflow = ArrayContext() }
    @inlinable
    public subscript<K: ContextKey>(key: K.Type) -> K.Value? {
        get {
            let id = ObjectIdentifier(key)
            if k0 == id { return v0 as? K.Value }
            if k1 == id { return v1 as? K.Value }
            if k1 == nil { return nil }
            return overflow[key]
        }
        set {
            let id = ObjectIdentifier(key)
            if k0 == id || k0 == nil {
                k0 = newValue == nil ? nil : id
                v0 = newValue
            } else if k1 == id || k1 == nil {
                k1 = newValue == nil ? nil : id
                v1 = newValue
            } else {
                overflow[key] = newValue
            }
        }
    }
}
