#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LoopbackServer {
    /// Thin wrappers over the POSIX calls the server makes, so the rest of the server reads the
    /// same on Linux and Darwin. Every descriptor made here is close-on-exec.
    enum POSIX {
        /// How a wait for readability ended.
        enum Wait: Equatable {
            /// The socket has data, an end of stream or an error to report.
            case readable
            /// The wake pipe fired: the server is stopping.
            case woken
            /// Nothing happened before the timeout.
            case timedOut
        }

        /// How a single `recv` ended.
        enum Receive: Equatable {
            case bytes(Int)
            case endOfStream
            case failed
        }

        // MARK: Setting up

        /// Opens a non-blocking TCP socket listening on 127.0.0.1 on an ephemeral port.
        static func makeListeningSocket() throws(LoopbackServer.Error) -> (fd: Int32, port: Int) {
            #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw .systemCallFailed(call: "socket", errno: errno) }
            do {
                try configure(fd)
                return (fd, try bindAndListen(fd))
            } catch {
                _ = close(fd)
                throw error
            }
        }

        private static func configure(_ fd: Int32) throws(LoopbackServer.Error) {
            setCloseOnExec(fd)
            var one: Int32 = 1
            let size = socklen_t(MemoryLayout<Int32>.size)
            guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size) == 0 else {
                throw .systemCallFailed(call: "setsockopt(SO_REUSEADDR)", errno: errno)
            }
            guard setBlocking(fd, false) else {
                throw .systemCallFailed(call: "fcntl(O_NONBLOCK)", errno: errno)
            }
        }

        private static func bindAndListen(_ fd: Int32) throws(LoopbackServer.Error) -> Int {
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1, never anything else
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw .systemCallFailed(call: "bind", errno: errno) }
            guard listen(fd, 128) == 0 else { throw .systemCallFailed(call: "listen", errno: errno) }
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw .systemCallFailed(call: "getsockname", errno: errno) }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        /// Opens the pipe whose read end wakes every waiting thread once a byte is written to it.
        static func makeWakePipe() throws(LoopbackServer.Error) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw .systemCallFailed(call: "pipe", errno: errno) }
            setCloseOnExec(fds[0])
            setCloseOnExec(fds[1])
            return (fds[0], fds[1])
        }

        /// Makes the wake pipe readable for good: every present and future wait on it returns.
        static func wake(_ writeFD: Int32) {
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)
        }

        // MARK: Connections

        /// Accepts one pending connection as a blocking, close-on-exec socket, or returns `nil`.
        static func accept(from listenFD: Int32) -> Int32? {
            let fd = Self.acceptCall(listenFD)
            guard fd >= 0 else { return nil }
            setCloseOnExec(fd)
            _ = setBlocking(fd, true)  // Darwin hands out sockets inheriting O_NONBLOCK
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return fd
        }

        private static func acceptCall(_ listenFD: Int32) -> Int32 {
            #if canImport(Glibc)
            Glibc.accept(listenFD, nil, nil)
            #else
            Darwin.accept(listenFD, nil, nil)
            #endif
        }

        /// Waits until `fd` is readable, the wake pipe fires, or `timeout` passes (`nil`: forever).
        ///
        /// Pass `fd` as `-1` to wait on the wake pipe alone. The wake pipe wins over the socket.
        static func wait(for fd: Int32, wake wakeFD: Int32, timeout: Duration?) -> Wait {
            var fds = [
                pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let milliseconds = timeout.map(Self.milliseconds) ?? -1
            while true {
                let count = fds.withUnsafeMutableBufferPointer {
                    poll($0.baseAddress, nfds_t(fd >= 0 ? 2 : 1), milliseconds)
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return .readable }  // let the read report the failure
                if count == 0 { return .timedOut }
                return fds[0].revents != 0 ? .woken : .readable
            }
        }

        /// Reads whatever is available into `buffer`.
        static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Receive {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 { return .bytes(count) }
                if count == 0 { return .endOfStream }
                if errno == EINTR { continue }
                return .failed
            }
        }

        /// Whether the peer has closed its end or reset the connection, without waiting and
        /// without consuming any byte it sent.
        static func peerHasClosed(_ fd: Int32) -> Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            while true {
                let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
                if count > 0 { return false }
                if count == 0 { return true }
                if errno == EINTR { continue }
                return errno != EAGAIN && errno != EWOULDBLOCK
            }
        }

        /// Writes every byte, or returns `false` when the peer or `stop()` closed the socket.
        static func sendAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) -> Bool {
            let bytes = Array(bytes)
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, $0.count - offset, noSignal)
                }
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }

        /// Makes a `send` on `fd` that can write nothing for `timeout` fail instead of blocking
        /// on: a client that reads none of a response cannot hold its connection forever.
        static func setSendTimeout(_ fd: Int32, _ timeout: Duration) {
            // A zero `timeval` would mean no timeout at all; wait at least a millisecond.
            let (seconds, attoseconds) = max(timeout, .milliseconds(1)).components
            var value = timeval(
                tv_sec: .init(clamping: seconds),
                tv_usec: .init(attoseconds / 1_000_000_000_000)
            )
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }

        /// Ends both directions, waking any thread blocked in `recv` or `send` on `fd`.
        static func shutdownBoth(_ fd: Int32) {
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }

        /// Sends FIN after the last byte written, keeping the socket readable.
        static func shutdownWrite(_ fd: Int32) {
            _ = shutdown(fd, Int32(SHUT_WR))
        }

        /// Closes a descriptor.
        static func closeDescriptor(_ fd: Int32) {
            _ = close(fd)
        }

        // MARK: Helpers

        #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
        #else
        private static let noSignal: Int32 = 0  // SO_NOSIGPIPE is set on every accepted socket
        #endif

        private static func setCloseOnExec(_ fd: Int32) {
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }

        private static func setBlocking(_ fd: Int32, _ blocking: Bool) -> Bool {
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0 else { return false }
            let updated = blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK
            return fcntl(fd, F_SETFL, updated) == 0
        }

        private static func milliseconds(_ duration: Duration) -> Int32 {
            guard duration > .zero else { return 0 }
            let (seconds, attoseconds) = duration.components
            let total = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return Int32(clamping: total)
        }
    }
}
