extension LoopbackServer.Core {
    /// How long a connection lingers after its last answer, reading and discarding what the
    /// client still sends, so that closing with unread bytes does not reset the connection before
    /// the client has read the answer.
    static let lingerTimeout = Duration.seconds(1)

    /// The longest single wait within a route's delay, so a stop is noticed between slices even
    /// if the wake pipe were missed.
    static let delaySlice = Duration.milliseconds(50)

    /// How a wait for more of a request ended.
    private enum ReadOutcome {
        /// Bytes arrived and went to the parser.
        case received
        /// The client closed or failed, or the server is stopping.
        case ended
        /// The idle timeout passed with nothing read, or the request timeout passed.
        case timedOut
    }

    /// Serves requests on one connection until it closes, fails, times out or the server stops.
    ///
    /// The caller closes `fd` afterwards.
    func serveConnection(_ fd: Int32, wakeFD: Int32) {
        LoopbackServer.POSIX.setSendTimeout(fd, timeouts.idle)
        var parser = LoopbackServer.RequestParser()
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
        // When the request being received must be complete: the request timeout after its first
        // byte was seen; `nil` while nothing of a request has arrived.
        var requestDeadline: ContinuousClock.Instant?
        while true {
            let parsed: LoopbackServer.RequestParser.Parsed
            do {
                guard let next = try parser.next() else {
                    if parser.takeContinueRequest() {
                        guard LoopbackServer.POSIX.sendAll(fd, LoopbackServer.Response.continueBytes) else { return }
                    }
                    if requestDeadline == nil && !parser.isBetweenRequests {
                        requestDeadline = ContinuousClock.now + timeouts.request
                    }
                    switch readMore(fd, wakeFD: wakeFD, deadline: requestDeadline, buffer: &readBuffer, into: &parser) {
                    case .received:
                        continue
                    case .ended:
                        return
                    case .timedOut:
                        // An idle connection just closes; a request cut short learns why.
                        if !parser.isBetweenRequests,
                            LoopbackServer.POSIX.sendAll(fd, LoopbackServer.Response.requestTimeoutBytes)
                        {
                            closeGracefully(fd, wakeFD: wakeFD)
                        }
                        return
                    }
                }
                parsed = next
            } catch {
                guard LoopbackServer.POSIX.sendAll(fd, LoopbackServer.Response.badRequestBytes) else { return }
                closeGracefully(fd, wakeFD: wakeFD)
                return
            }
            requestDeadline = nil
            guard answer(parsed, on: fd, wakeFD: wakeFD) else { return }
        }
    }

    /// Records a request, waits out its route's delay and sends the answer.
    ///
    /// - Returns: Whether the connection stays open for another request.
    private func answer(_ parsed: LoopbackServer.RequestParser.Parsed, on fd: Int32, wakeFD: Int32) -> Bool {
        let handler = receive(parsed.request)
        let response = handler?(parsed.request) ?? LoopbackServer.Response.notFound
        guard wait(response.delay, on: fd, wakeFD: wakeFD) else { return false }
        if response.isRaw {
            if LoopbackServer.POSIX.sendAll(fd, response.body) {
                closeGracefully(fd, wakeFD: wakeFD)
            }
            return false
        }
        // The head never tells of a cut or an endless body: it reads as a complete response's.
        let keepAlive = parsed.keepAlive && !response.closesConnection
        let delivery = LoopbackServer.Response.Delivery(response.content)
        var bytes = response.serializedHead(framing: delivery.framing, keepAlive: keepAlive)
        let sendsBody = response.statusHasBody && !parsed.isHEAD
        if sendsBody, case .bytes(let body) = response.content {
            // The common case: head and body in one write.
            bytes += body
            guard LoopbackServer.POSIX.sendAll(fd, bytes) else { return false }
        } else {
            guard LoopbackServer.POSIX.sendAll(fd, bytes) else { return false }
            if sendsBody {
                switch sendBody(delivery, on: fd, wakeFD: wakeFD) {
                case .complete:
                    break
                case .cut:
                    closeGracefully(fd, wakeFD: wakeFD)
                    return false
                case .ended:
                    return false
                }
            }
        }
        if !keepAlive {
            closeGracefully(fd, wakeFD: wakeFD)
        }
        return keepAlive
    }

    /// Waits for the client's next bytes, at most the idle timeout and never past `deadline`, and
    /// hands them to the parser.
    private func readMore(
        _ fd: Int32,
        wakeFD: Int32,
        deadline: ContinuousClock.Instant?,
        buffer: inout [UInt8],
        into parser: inout LoopbackServer.RequestParser
    ) -> ReadOutcome {
        var timeout = timeouts.idle
        if let deadline {
            // Checked before waiting: a client that always has a byte ready would otherwise
            // never see a wait time out.
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            timeout = min(timeout, left)
        }
        switch LoopbackServer.POSIX.wait(for: fd, wake: wakeFD, timeout: timeout) {
        case .woken: return .ended
        case .timedOut: return .timedOut
        case .readable: break
        }
        guard case .bytes(let count) = LoopbackServer.POSIX.receive(fd, into: &buffer) else { return .ended }
        parser.append(buffer[..<count])
        return .received
    }

    /// Waits for `delay` in slices, ending early when the server stops or the client closes the
    /// connection (a cancelled call): its thread and connection end then, not when the delay has
    /// passed.
    ///
    /// - Returns: `false` if the server is stopping or the client has gone.
    private func wait(_ delay: Duration, on fd: Int32, wakeFD: Int32) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + delay
        while clock.now < deadline {
            let slice = min(deadline - clock.now, Self.delaySlice)
            if LoopbackServer.POSIX.wait(for: -1, wake: wakeFD, timeout: slice) == .woken {
                return false
            }
            if LoopbackServer.POSIX.peerHasClosed(fd) { return false }
        }
        return true
    }

    /// Ends the connection after its last answer: sends FIN, then reads and discards whatever
    /// the client still sends until it closes too, the linger time (never longer than the idle
    /// timeout) passes or the server stops.
    func closeGracefully(_ fd: Int32, wakeFD: Int32) {
        LoopbackServer.POSIX.shutdownWrite(fd)
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let clock = ContinuousClock()
        let deadline = clock.now + min(Self.lingerTimeout, timeouts.idle)
        while clock.now < deadline,
            LoopbackServer.POSIX.wait(for: fd, wake: wakeFD, timeout: deadline - clock.now) == .readable,
            case .bytes = LoopbackServer.POSIX.receive(fd, into: &scratch)
        {}
    }
}
