import Foundation

/// Cuts bytes that arrive in chunks into lines: a line ends at LF, CR LF or a lone CR (as
/// server-sent events allow), wherever the chunks happen to be cut, and no line may be longer
/// than a limit, so a body without line ends cannot fill memory.
struct LineSplitter {
    let limit: Int
    private var line: [UInt8] = []
    private var afterCR = false
    /// Whether a line passed the limit: the lines before it were handed out, nothing after.
    private(set) var failed = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a chunk; returns the lines it completed. When a line passes the limit, the lines
    /// completed before it are returned, ``failed`` is set, and nothing more is taken.
    mutating func add(_ chunk: Data) -> [String] {
        var lines: [String] = []
        guard !failed else { return lines }
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"):
                lines.append(take())
            case UInt8(ascii: "\r"):
                lines.append(take())
                afterCR = true
            default:
                guard line.count < limit else {
                    failed = true
                    line.removeAll()
                    return lines
                }
                line.append(byte)
            }
        }
        return lines
    }

    /// The last line, when the body ended without a line end after it.
    mutating func finish() -> String? {
        line.isEmpty ? nil : take()
    }

    private mutating func take() -> String {
        defer { line.removeAll(keepingCapacity: true) }
        return String(decoding: line, as: UTF8.self)
    }
}
