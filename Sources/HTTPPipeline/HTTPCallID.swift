import Synchronization

/// Which call an event belongs to: unique within the process, assigned in the order calls start.
public struct HTTPCallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number, from 1.
    public let rawValue: UInt64

    /// The call numbered `rawValue`.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "call-\(rawValue)" }

    private static let counter = Atomic<UInt64>(0)

    /// A number no call of this process had.
    static func next() -> Self {
        Self(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }
}
