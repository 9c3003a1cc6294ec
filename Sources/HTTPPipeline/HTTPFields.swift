/// One header field: a name and a value, as written.
public struct HTTPField: Sendable, Hashable {
    /// The field name, as it will be sent (names compare without regard to ASCII case).
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    @inlinable
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The header fields of a request or response head, in order, with names compared without regard
/// to ASCII case, as HTTP compares them.
///
/// A value type: changing one is a change to a small array, not a copy of a Foundation object
/// (on Linux, `URLRequest.setValue` costs about 21,000 instructions; setting a field here about
/// 1,300, measured in Documentation/CoreV2.md).
///
/// ```swift
/// var fields: HTTPFields = ["Accept": "application/json"]
/// fields["X-Request-ID"] = "req-1"        // replaces every X-Request-ID
/// fields.append(HTTPField(name: "Cache-Control", value: "no-store"))
/// fields["accept"] = nil                  // removes Accept
/// ```
public struct HTTPFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    @usableFromInline package var storage: [HTTPField]

    /// No fields.
    @inlinable
    public init() { storage = [] }

    /// The fields given, in order.
    ///
    /// - Parameter fields: The fields.
    @inlinable
    public init(_ fields: [HTTPField]) { storage = fields }

    /// Fields from a literal, in order: `["Accept": "application/json"]`.
    ///
    /// - Parameter elements: Names and values.
    @inlinable
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    /// The position of the first field.
    @inlinable
    public var startIndex: Int { storage.startIndex }

    /// The position after the last field.
    @inlinable
    public var endIndex: Int { storage.endIndex }

    /// The field at a position.
    ///
    /// - Parameter position: A valid position.
    @inlinable
    public subscript(position: Int) -> HTTPField { storage[position] }

    /// The first value of the fields named `name`; setting it replaces every field of that name
    /// with one (where the first one was), and `nil` removes them all.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public subscript(name: String) -> String? {
        get { firstIndex(named: name).map { storage[$0].value } }
        set {
            guard let newValue else {
                removeAll(named: name)
                return
            }
            guard let first = firstIndex(named: name) else {
                storage.append(HTTPField(name: name, value: newValue))
                return
            }
            storage[first].value = newValue
            var index = first + 1
            while index < storage.endIndex {
                if Self.sameName(storage[index].name, name) { storage.remove(at: index) } else { index += 1 }
            }
        }
    }

    /// Every value of the fields named `name`, in order.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The values; empty when there is none.
    @inlinable
    public func values(named name: String) -> [String] {
        storage.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others, keeping fields of the same name.
    ///
    /// - Parameter field: The field.
    @inlinable
    public mutating func append(_ field: HTTPField) {
        storage.append(field)
    }

    /// Removes every field named `name`.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public mutating func removeAll(named name: String) {
        guard firstIndex(named: name) != nil else { return }  // no copy when there is nothing to remove
        storage.removeAll { Self.sameName($0.name, name) }
    }

    @inlinable
    func firstIndex(named name: String) -> Int? {
        // Through the buffer, each name is compared where it lies: subscripting the array copied
        // every field scanned (a retain and a release of both its strings; 17 retains a request
        // in the standard stack, measured with callgrind).
        storage.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.sameName(fields[index].name, name) { return index }
            return nil
        }
    }

    /// Whether two names are equal ignoring ASCII case, without allocating (on contiguous UTF-8
    /// when both strings have it: iterating the UTF-8 views costs about 3,500 instructions more
    /// per request, measured in the core v2 spike).
    @inlinable
    package static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where !sameByte(left[index], right[index]) { return false }
                return true
            }
        }
        if let contiguous = contiguous ?? nil { return contiguous }
        return zip(lhs.utf8, rhs.utf8).allSatisfy(sameByte)
    }

    /// Whether two bytes are equal ignoring ASCII letter case.
    @inlinable
    static func sameByte(_ left: UInt8, _ right: UInt8) -> Bool {
        guard left != right else { return true }
        let folded = left | 0x20
        return folded == right | 0x20 && folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
    }

    /// Two field lists are equal when they hold the same fields in the same order, names compared
    /// without regard to case.
    @inlinable
    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy { sameName($0.name, $1.name) && $0.value == $1.value }
    }

    /// Hashes names in lower case, so equal lists hash equally.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        for field in storage {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}
