public import Foundation

/// One header field.
public struct HTTPField: Sendable, Hashable {
    public var name: String
    public var value: String
    @inlinable public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension String {
    /// ASCII case-insensitive equality, no allocation (contiguous UTF-8 fast path).
    @inlinable
    public func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for i in 0..<a.count where a[i] != b[i] {
                    let x = a[i]
                    let y = b[i]
                    if (x | 0x20) != (y | 0x20) || (x | 0x20) &- 97 >= 26 { return false }
                }
                return true
            }
        }
        if let fast = fast ?? nil { return fast }
        for (x, y) in zip(utf8, other.utf8) where x != y {
            if (x | 0x20) != (y | 0x20) || (x | 0x20) &- 97 >= 26 { return false }
        }
        return true
    }

    /// Whether this is a valid field value: no NUL, CR or LF (the header-injection check
    /// Foundation's setValue does per Character, done here on bytes).
    @inlinable
    public var isValidFieldValue: Bool {
        let fast = utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where b == 0 || b == 10 || b == 13 { return false }
            return true
        }
        if let fast { return fast }
        return !utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }
    }
}

/// Ordered header fields, names compared case-insensitively.
public struct HTTPFields: Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    @usableFromInline var storage: [HTTPField]

    @inlinable public init() { storage = [] }
    @inlinable public init(_ fields: [HTTPField]) { storage = fields }
    @inlinable public init(dictionaryLiteral elements: (String, String)...) {
        storage = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    @inlinable public var startIndex: Int { storage.startIndex }
    @inlinable public var endIndex: Int { storage.endIndex }
    @inlinable public subscript(position: Int) -> HTTPField { storage[position] }

    @inlinable
    func firstIndex(named name: String) -> Int? {
        var i = storage.startIndex
        while i < storage.endIndex {
            if storage[i].name.equalsIgnoringASCIICase(name) { return i }
            i += 1
        }
        return nil
    }

    /// The first value of `name`; setting replaces every field of that name (setValue semantics).
    @inlinable
    public subscript(name: String) -> String? {
        get { firstIndex(named: name).map { storage[$0].value } }
        set {
            guard let newValue else {
                removeAll(named: name)
                return
            }
            if let i = firstIndex(named: name) {
                storage[i].value = newValue
                var j = i + 1
                while j < storage.endIndex {
                    if storage[j].name.equalsIgnoringASCIICase(name) { storage.remove(at: j) } else { j += 1 }
                }
            } else {
                storage.append(HTTPField(name: name, value: newValue))
            }
        }
    }

    @inlinable
    public mutating func append(name: String, value: String) {
        storage.append(HTTPField(name: name, value: value))
    }

    @inlinable
    public mutating func removeAll(named name: String) {
        guard firstIndex(named: name) != nil else { return }  // no COW copy when absent
        storage.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }
}

public struct HTTPMethod: Sendable, Hashable {
    public var rawValue: String
    @inlinable public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var get: HTTPMethod { HTTPMethod("GET") }
}

public struct HTTPRequestHead: Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var fields: HTTPFields
    @inlinable public init(method: HTTPMethod, url: URL, fields: HTTPFields) {
        self.method = method
        self.url = url
        self.fields = fields
    }
}

public struct HTTPResponseHead: Sendable {
    public var status: Int
    public var fields: HTTPFields
    @inlinable public init(status: Int, fields: HTTPFields) {
        self.status = status
        self.fields = fields
    }
}
