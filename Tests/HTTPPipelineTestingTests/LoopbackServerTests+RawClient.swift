import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for sending exact bytes to a loopback server, malformed ones included.
///
/// Every read gives up after two seconds, so a server that hangs fails the test instead of
/// hanging it.
final class LoopbackRawClient {
    struct ReceivedResponse {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var pending: [UInt8] = []
    private var isClosed = false

    init(port: Int) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket failed: \(errno)") }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            closeDescriptor(fd)
            throw Failure(description: "connect failed: \(errno)")
        }
    }

    deinit {
        close()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        closeDescriptor(fd)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { sendBytes(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard sent > 0 else { throw Failure(description: "send failed: \(errno)") }
            offset += sent
        }
    }

    /// Waits at most `timeout` for the server to send something or close the connection, without
    /// reading; returns whether it did.
    func isReadable(within timeout: Duration) -> Bool {
        guard pending.isEmpty else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Reads every byte until the server closes the connection.
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { pending = [] }
        return pending
    }

    /// Reads one response framed by `Content-Length` (or none, for a `HEAD` answer).
    func readResponse(bodyExpected: Bool = true) throws -> ReceivedResponse {
        let terminator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            if let range = pending.firstRange(of: terminator) {
                headEnd = range.upperBound
                break
            }
            guard try fill() else { throw Failure(description: "closed before a full head") }
        }
        guard let headEnd else { throw Failure(description: "no head") }
        let head = String(decoding: pending[..<(headEnd - 4)], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.map { line in
            let colon = line.firstIndex(of: ":")!
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return (name: String(line[..<colon]), value: value)
        }
        var response = ReceivedResponse(status: status, headers: headers, body: [])
        let length = bodyExpected ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
        while pending.count < headEnd + length {
            guard try fill() else { throw Failure(description: "closed before the full body") }
        }
        response.body = Array(pending[headEnd..<(headEnd + length)])
        pending.removeFirst(headEnd + length)
        return response
    }

    /// Reads more bytes into `pending`; returns `false` at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == ECONNRESET { return false }
        guard count >= 0 else { throw Failure(description: "recv failed or timed out: \(errno)") }
        pending.append(contentsOf: chunk[..<count])
        return count > 0
    }
}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

private func sendBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(fd, bytes, count, 0)  // SO_NOSIGPIPE is set on the socket
    #endif
}
