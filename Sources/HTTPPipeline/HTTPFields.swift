/// One header field: a name and a value, as written.
public struct HTTPField: Sendable, Hashable {
    /// The field name, as it will be sent (names compare without regard to ASCII case).
    public var name: Name
    /// The field value.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The name, for example `.contentType`.
    ///   - value: The value.
    @inlinable
    public init(name: Name, value: String) {
        self.name = name
        self.value = value
    }

    /// Creates a field whose name is a string made at run time, taken as given: a name that is
    /// not a token is refused by the transports before anything is sent (``Name/init(_:)``
    /// checks one at once).
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    @inlinable
    public init(name: String, value: String) {
        self.init(name: Name(unchecked: name), value: value)
    }
}

/// The header fields of a request or response head, in order, with names compared without regard
/// to ASCII case, as HTTP compares them. Shaped like swift-http-types' `HTTPFields`.
///
/// Reading by name gives **every** value of that name, joined as RFC 9110 §5.3 allows (with
/// `, `, or `; ` for `Cookie`), so list-valued fields such as `Accept`, `Cache-Control` and
/// `Vary` lose no item; `fields[values:]` gives them one by one, as `Set-Cookie` must be read.
/// Setting a name replaces every field of that name with one, where the first one was.
///
/// ```swift
/// var fields: HTTPFields = [.accept: "application/json"]
/// fields.append(HTTPField(name: .accept, value: "text/plain"))
/// print(fields[.accept] ?? "")           // application/json, text/plain
/// print(fields[values: .accept])         // ["application/json", "text/plain"]
/// fields["X-Request-ID"] = "req-1"       // replaces every X-Request-ID
/// fields[.accept] = nil                  // removes both
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

    /// Fields from a literal, in order: `[.accept: "application/json"]`.
    ///
    /// - Parameter elements: Names and values.
    @inlinable
    public init(dictionaryLiteral elements: (HTTPField.Name, String)...) {
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

    /// Every value of the fields named `name`, joined with `, ` (`; ` for `Cookie`), or `nil`
    /// when there is none; setting it replaces every field of that name with one (where the
    /// first one was), and `nil` removes them all.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public subscript(name: HTTPField.Name) -> String? {
        get { joinedValue(named: name.rawName) }
        set { set(newValue, named: name) }
    }

    /// The same as the subscript by ``HTTPField/Name``, for a name held in a string.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public subscript(name: String) -> String? {
        get { joinedValue(named: name) }
        set { set(newValue, named: HTTPField.Name(unchecked: name)) }
    }

    /// Every value of the fields named `name`, in order; empty when there is none.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public subscript(values name: HTTPField.Name) -> [String] {
        self[fields: name].map(\.value)
    }

    /// Every field named `name`, in order; empty when there is none.
    ///
    /// - Parameter name: The field name, in any case.
    @inlinable
    public subscript(fields name: HTTPField.Name) -> [HTTPField] {
        storage.filter { Self.sameName($0.name.rawName, name.rawName) }
    }

    @inlinable
    func joinedValue(named name: String) -> String? {
        // Through the buffer, as `firstIndex(named:)`: no copy of a field scanned. One value
        // (the usual case) is returned as it is; a second starts the joining.
        storage.withUnsafeBufferPointer { fields -> String? in
            var first = -1
            for index in fields.indices where Self.sameName(fields[index].name.rawName, name) {
                guard first >= 0 else {
                    first = index
                    continue
                }
                var joined = fields[first].value
                let separator = Self.sameName(name, "Cookie") ? "; " : ", "
                for later in index..<fields.endIndex where Self.sameName(fields[later].name.rawName, name) {
                    joined += separator + fields[later].value
                }
                return joined
            }
            return first >= 0 ? fields[first].value : nil
        }
    }

    @inlinable
    mutating func set(_ newValue: String?, named name: HTTPField.Name) {
        guard let newValue else {
            removeAll(named: name)
            return
        }
        guard let first = firstIndex(named: name.rawName) else {
            storage.append(HTTPField(name: name, value: newValue))
            return
        }
        storage[first].value = newValue
        var index = first + 1
        while index < storage.endIndex {
            if Self.sameName(storage[index].name.rawName, name.rawName) {
                storage.remove(at: index)
            } else {
                index += 1
            }
        }
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
    public mutating func removeAll(named name: HTTPField.Name) {
        guard firstIndex(named: name.rawName) != nil else { return }  // no copy when there is nothing to remove
        storage.removeAll { Self.sameName($0.name.rawName, name.rawName) }
    }

    @inlinable
    func firstIndex(named name: String) -> Int? {
        // Through the buffer, each name is compared where it lies: subscripting the array copied
        // every field scanned (a retain and a release of both its strings; 17 retains a request
        // in the standard stack, measured with callgrind).
        storage.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.sameName(fields[index].name.rawName, name) { return index }
            return nil
        }
    }

    /// Whether two names are equal ignoring ASCII case, without allocating.
    // On contiguous UTF-8 when both strings have it: iterating the UTF-8 views costs more.
    @inlinable @inline(__always)
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
            && zip(lhs.storage, rhs.storage).allSatisfy {
                sameName($0.name.rawName, $1.name.rawName) && $0.value == $1.value
            }
    }

    /// Hashes names in lower case, so equal lists hash equally.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        for field in storage {
            hasher.combine(field.name.canonicalName)
            hasher.combine(field.value)
        }
    }
}
