import Foundation

/// A W3C Trace Context (`traceparent` and `tracestate`, Trace Context Level 1): the trace a call
/// belongs to, the span it is part of, and whether the trace is sampled.
///
/// ```swift
/// let incoming = TraceContext(
///     traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "rojo=00f067aa0ba902b7")
/// print(incoming?.traceID ?? "malformed")   // 4bf92f3577b34da6a3ce929d0e0e4736
/// ```
public struct TraceContext: Sendable, Hashable, CustomStringConvertible {
    /// The trace's id: 32 lowercase hex digits, not all zero.
    public let traceID: String
    /// The span this one descends from: 16 lowercase hex digits, not all zero.
    public let spanID: String
    /// The trace flags; bit 0 is "sampled".
    public let flags: UInt8
    /// The `tracestate` members, in order (each `key=value`); empty when there is none or the
    /// one given was malformed.
    public let state: [String]

    /// Whether the trace is sampled (flag bit 0).
    public var isSampled: Bool { flags & 1 == 1 }

    /// The `traceparent` value: version `00`.
    public var traceparent: String {
        "00-" + traceID + "-" + spanID + "-" + Self.hex(flags)
    }

    /// The `tracestate` value, or `nil` with no member.
    public var tracestate: String? {
        state.isEmpty ? nil : state.joined(separator: ",")
    }

    public var description: String { traceparent }

    /// Reads a `traceparent` (and its `tracestate`) as the specification says: version `00`
    /// exactly, a later version by its first four fields; `nil` when it is malformed (a trace is
    /// then started anew). A malformed `tracestate` is dropped, the `traceparent` kept.
    ///
    /// - Parameters:
    ///   - traceparent: The `traceparent` value.
    ///   - tracestate: The `tracestate` value, if any.
    public init?(traceparent: String, tracestate: String? = nil) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55 else { return nil }
        let version = bytes[0..<2]
        guard Self.isLowerHex(version), Array(version) != Array("ff".utf8), bytes[2] == UInt8(ascii: "-") else {
            return nil
        }
        // Version 00 is exactly 55 characters; a later one may go on after a dash.
        if Array(version) == Array("00".utf8) {
            guard bytes.count == 55 else { return nil }
        } else if bytes.count > 55, bytes[55] != UInt8(ascii: "-") {
            return nil
        }
        let trace = bytes[3..<35]
        let span = bytes[36..<52]
        let flags = bytes[53..<55]
        guard bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-"), Self.isLowerHex(trace),
            Self.isLowerHex(span), Self.isLowerHex(flags), trace.contains(where: { $0 != UInt8(ascii: "0") }),
            span.contains(where: { $0 != UInt8(ascii: "0") }),
            let flagValue = UInt8(String(decoding: flags, as: UTF8.self), radix: 16)
        else { return nil }
        traceID = String(decoding: trace, as: UTF8.self)
        spanID = String(decoding: span, as: UTF8.self)
        // A version after 00 keeps only the flags this one knows (sampled).
        self.flags = Array(version) == Array("00".utf8) ? flagValue : flagValue & 1
        state = tracestate.flatMap(Self.members) ?? []
    }

    /// A context with the given ids.
    init(traceID: String, spanID: String, flags: UInt8, state: [String]) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.state = state
    }

    /// A new trace: a random trace id and span id.
    ///
    /// - Parameter sampled: Whether it is sampled.
    public static func start(sampled: Bool = true) -> TraceContext {
        TraceContext(traceID: randomHex(bytes: 16), spanID: randomHex(bytes: 8), flags: sampled ? 1 : 0, state: [])
    }

    /// A child span of this one: the same trace, flags and state, a new span id.
    public func child() -> TraceContext {
        TraceContext(traceID: traceID, spanID: Self.randomHex(bytes: 8), flags: flags, state: state)
    }

    // MARK: - Checks

    static func isLowerHex(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Random hex of `bytes` bytes (8 or 16), never all zero.
    static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let words = (0..<(count / 8)).map { _ in generator.next() as UInt64 }
            if words.contains(where: { $0 != 0 }) { return words.map(hex).joined() }
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// `value` as 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digits[Int((value >> UInt64(60 - index * 4)) & 0xF)] }
            return 16
        }
    }

    /// `value` as 2 lowercase hex digits.
    static func hex(_ value: UInt8) -> String {
        String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = digits[Int(value >> 4)]
            buffer[1] = digits[Int(value & 0xF)]
            return 2
        }
    }

    /// The members of a `tracestate`, or `nil` when it is malformed: at most 32 members, each
    /// `key=value` with the specification's key and value grammar, no key twice; empty members
    /// (between commas) are skipped.
    static func members(_ value: String) -> [String]? {
        var members: [String] = []
        var keys = Set<String>()
        for raw in value.split(separator: ",", omittingEmptySubsequences: false) {
            let member = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            if member.isEmpty { continue }
            guard let equals = member.firstIndex(of: "=") else { return nil }
            let key = String(member[..<equals])
            let memberValue = String(member[member.index(after: equals)...])
            guard isKey(key), isValue(memberValue), keys.insert(key).inserted else { return nil }
            members.append(key + "=" + memberValue)
        }
        return members.count <= 32 ? members : nil
    }

    /// `simple-key = lcalpha 0*255( lcalpha / DIGIT / "_" / "-"/ "*" / "/" )`, or
    /// `tenant-id "@" system-id`.
    static func isKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        func allowed(_ byte: UInt8) -> Bool {
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || "_-*/".utf8.contains(byte)
        }
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) {
            let tenant = bytes[..<at]
            let system = bytes[(at + 1)...]
            guard let first = tenant.first, (0x61...0x7A).contains(first) || (0x30...0x39).contains(first),
                tenant.count <= 241, tenant.allSatisfy(allowed), let head = system.first, (0x61...0x7A).contains(head),
                system.count <= 14, system.allSatisfy(allowed)
            else { return false }
            return true
        }
        guard let first = bytes.first, (0x61...0x7A).contains(first), bytes.count <= 256 else { return false }
        return bytes.allSatisfy(allowed)
    }

    /// `value = 0*255(chr) nblk-chr`: printable ASCII but `,` and `=`, not ending in a space.
    static func isValue(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 256, bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }
    }
}
