import Foundation

extension LoopbackServer.Core {
    /// How sending a body ended.
    enum BodyOutcome {
        /// Every byte and the framing's end went out; the connection can serve another request.
        case complete
        /// The body was cut short on purpose; the connection is to be closed.
        case cut
        /// The client went away, stopped taking bytes, or the server is stopping.
        case ended
    }

    /// Sends a body chunk by chunk, pausing between chunks, until it is complete, reaches its
    /// cut, its client goes away or the server stops.
    ///
    /// Before each chunk it checks that the client is still there; every pause ends early when
    /// the server stops or the client goes away. A `send` that the client takes nothing of for
    /// the idle timeout fails (the socket's send timeout), so a client that stops reading ends
    /// even a never-ending body.
    func sendBody(_ delivery: LoopbackServer.Response.Delivery, on fd: Int32, wakeFD: Int32) -> BodyOutcome {
        if delivery.repeats && delivery.chunks.allSatisfy(\.isEmpty) {
            awaitDeparture(of: fd, wakeFD: wakeFD)
            return .ended
        }
        let isChunked = delivery.framing == .chunked
        // A chunk sent again (a repeated or endless body) goes out as the bytes framed the first
        // time: a large body costs one copy of its chunk, not one per round.
        let reusesBytes = delivery.repeats || delivery.rounds > 1
        var framed: [Int: [UInt8]] = [:]
        var sent = 0
        var index = 0
        var round = 1
        var isFirst = true
        while round <= delivery.rounds || delivery.repeats {
            if index == delivery.chunks.count {
                index = 0
                round += 1
                continue
            }
            let chunk = delivery.chunks[index]
            index += 1
            if chunk.isEmpty { continue }
            if let limit = delivery.limit, sent >= limit { return .cut }
            if !isFirst {
                guard pause(delivery.pause, watching: fd, wakeFD: wakeFD) else { return .ended }
            }
            isFirst = false
            guard !LoopbackServer.POSIX.peerHasClosed(fd) else { return .ended }
            let piece = delivery.limit.map { chunk.prefix($0 - sent) } ?? chunk[...]
            let bytes: [UInt8]
            if piece.count == chunk.count, let known = framed[index] {
                bytes = known
            } else {
                bytes = Self.frame(piece, of: chunk, chunked: isChunked)
                if reusesBytes && piece.count == chunk.count { framed[index] = bytes }
            }
            guard LoopbackServer.POSIX.sendAll(fd, bytes) else { return .ended }
            sent += piece.count
        }
        if delivery.limit != nil { return .cut }
        if isChunked {
            guard LoopbackServer.POSIX.sendAll(fd, Array("0\r\n\r\n".utf8)) else { return .ended }
        }
        return .complete
    }

    /// The bytes on the wire for `piece`, the start (or all) of `chunk`: with a chunked body,
    /// `chunk`'s size line first and, when the piece is the whole chunk, the CRLF that ends it.
    private static func frame(_ piece: Data.SubSequence, of chunk: Data, chunked: Bool) -> [UInt8] {
        guard chunked else { return Array(piece) }
        var bytes = Array("\(String(chunk.count, radix: 16))\r\n".utf8)
        bytes += piece
        if piece.count == chunk.count {
            bytes += Array("\r\n".utf8)
        }
        return bytes
    }

    /// Waits out a pause between chunks in slices, watching the client.
    ///
    /// Bytes the client sends meanwhile (its next request) stay unread; the pause then watches
    /// the wake pipe alone.
    ///
    /// - Returns: `false` if the server is stopping or the client went away.
    private func pause(_ duration: Duration, watching fd: Int32, wakeFD: Int32) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        var watched = fd
        repeat {
            let slice = max(.zero, min(deadline - clock.now, Self.delaySlice))
            switch LoopbackServer.POSIX.wait(for: watched, wake: wakeFD, timeout: slice) {
            case .woken:
                return false
            case .timedOut:
                break
            case .readable:
                guard !LoopbackServer.POSIX.peerHasClosed(fd) else { return false }
                watched = -1
            }
        } while clock.now < deadline
        return true
    }

    /// Holds a stalled body open until the client goes away or the server stops, discarding
    /// whatever the client sends meanwhile.
    private func awaitDeparture(of fd: Int32, wakeFD: Int32) {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch LoopbackServer.POSIX.wait(for: fd, wake: wakeFD, timeout: Self.delaySlice) {
            case .woken:
                return
            case .timedOut:
                continue
            case .readable:
                guard case .bytes = LoopbackServer.POSIX.receive(fd, into: &scratch) else { return }
            }
        }
    }
}
