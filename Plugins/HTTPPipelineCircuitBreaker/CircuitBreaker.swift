import HTTPPipeline

/// The circuits one ``CircuitBreakerMiddleware`` (and every copy of it) shares, by key, under
/// one lock; and the state changes waiting to be reported, in order.
final class CircuitBreaker: Sendable {
    /// One circuit.
    struct Circuit: Sendable {
        enum Phase: Sendable {
            case closed(CircuitWindow)
            /// Open until this time on the breaker's clock.
            case open(until: Duration)
            /// Probes in flight.
            case halfOpen(probes: Int)
        }

        var phase = Phase.closed(CircuitWindow())
        /// Counts state changes: an outcome is judged only in the phase its call was let in.
        var generation = 0
        /// While half-open, when the probes let in last are given up on: a probe that hangs (no
        /// timeout below it) must not keep the circuit half-open, turning every call away, for good.
        var probesDue: Duration = .zero

        var state: CircuitState {
            switch phase {
            case .closed: .closed
            case .open: .open
            case .halfOpen: .halfOpen
            }
        }
    }

    /// A call let through: which circuit and phase its outcome belongs to.
    struct Ticket: Sendable {
        let key: String
        let generation: Int
        let probe: Bool
    }

    struct State: Sendable {
        var circuits: [String: Circuit] = [:]
        /// How many circuits there may be before the idle ones are dropped, as a new key arrives.
        var sweepAt = CircuitBreaker.sweepFloor
        /// Changes not yet reported, oldest first, and whether a caller is reporting them.
        var outbox: [CircuitStateChange] = []
        var reporting = false
    }

    /// The fewest circuits at which idle ones are looked for.
    static let sweepFloor = 256

    let policy: CircuitBreakerPolicy
    let timeline: Timeline
    let observer: (@Sendable (CircuitStateChange) -> Void)?
    private let state = Locked(State())

    init(policy: CircuitBreakerPolicy, timeline: Timeline, observer: (@Sendable (CircuitStateChange) -> Void)?) {
        self.policy = policy
        self.timeline = timeline
        self.observer = observer
    }

    /// The state of the circuit `key` (closed when it has seen no call).
    func state(of key: String) -> CircuitState {
        state.withLock { state in
            guard var circuit = state.circuits[key] else { return .closed }
            // An open circuit whose break is over is half-open for the next call.
            if case .open(let until) = circuit.phase, timeline.elapsed >= until {
                circuit.phase = .halfOpen(probes: 0)
            }
            return circuit.state
        }
    }

    /// Lets a call through, or turns it away; `change` is the state change letting it in made
    /// (an open circuit past its break turning half-open), if any.
    func admit(_ key: String, change: inout CircuitStateChange?) throws(CircuitOpenError) -> Ticket {
        let now = timeline.elapsed
        let (admitted, changed, made) = state.withLock {
            state -> (Result<Ticket, CircuitOpenError>, Bool, CircuitStateChange?) in
            let queued = state.outbox.count
            let before = state.circuits[key]?.state ?? .closed
            let admitted = admit(key, now: now, in: &state)
            let after = state.circuits[key]?.state ?? .closed
            return (admitted, state.outbox.count > queued, Self.change(key, from: before, to: after))
        }
        change = made
        if changed { report() }
        return try admitted.get()
    }

    /// A change from `from` to `to`, or `nil` when they are the same.
    private static func change(_ key: String, from: CircuitState, to: CircuitState) -> CircuitStateChange? {
        from == to ? nil : CircuitStateChange(key: key, from: from, to: to)
    }

    private func admit(_ key: String, now: Duration, in state: inout State) -> Result<Ticket, CircuitOpenError> {
        if state.circuits[key] == nil, state.circuits.count >= state.sweepAt { sweep(now: now, in: &state) }
        var circuit = state.circuits[key] ?? Circuit()
        defer { state.circuits[key] = circuit }
        if case .open(let until) = circuit.phase {
            guard now >= until else {
                return .failure(CircuitOpenError(key: key, state: .open, retryAfter: until - now))
            }
            change(&circuit, key: key, to: .halfOpen(probes: 0), in: &state)
        }
        switch circuit.phase {
        case .closed:
            return .success(Ticket(key: key, generation: circuit.generation, probe: false))
        case .halfOpen(var probes):
            // Probes that have not answered within a break are given up on: others may probe.
            if probes >= policy.halfOpenProbes, now >= circuit.probesDue { probes = 0 }
            guard probes < policy.halfOpenProbes else {
                return .failure(CircuitOpenError(key: key, state: .halfOpen, retryAfter: circuit.probesDue - now))
            }
            circuit.phase = .halfOpen(probes: probes + 1)
            circuit.probesDue = now + policy.breakDuration
            return .success(Ticket(key: key, generation: circuit.generation, probe: true))
        case .open:
            preconditionFailure("an open circuit past its break was made half-open above")
        }
    }

    /// Judges a call's outcome; `nil` for an outcome not judged (the caller's cancellation).
    ///
    /// - Returns: The state change the outcome made, if any.
    @discardableResult
    func record(_ ticket: Ticket, failure: Bool?) -> CircuitStateChange? {
        let now = timeline.elapsed
        let (changed, made) = state.withLock { state -> (Bool, CircuitStateChange?) in
            let queued = state.outbox.count
            let before = state.circuits[ticket.key]?.state ?? .closed
            record(ticket, failure: failure, now: now, in: &state)
            let after = state.circuits[ticket.key]?.state ?? .closed
            return (state.outbox.count > queued, Self.change(ticket.key, from: before, to: after))
        }
        if changed { report() }
        return made
    }

    /// Drops the circuits that are closed with nothing in their window: they know nothing a new
    /// circuit would not, so one client calling ever more origins (or context keys) holds only
    /// the circuits used within a sampling duration, and the open and half-open ones. Runs when
    /// the count doubles, so its cost is spread over the keys added.
    private func sweep(now: Duration, in state: inout State) {
        state.circuits = state.circuits.filter { _, circuit in
            guard case .closed(let window) = circuit.phase else { return true }
            return window.totals(at: now, window: policy.samplingDuration).calls > 0
        }
        state.sweepAt = max(Self.sweepFloor, state.circuits.count * 2)
    }

    /// How many circuits the breaker holds now.
    var circuitCount: Int { state.withLock { $0.circuits.count } }

    private func record(_ ticket: Ticket, failure: Bool?, now: Duration, in state: inout State) {
        // A closed circuit dropped as idle while this call was in flight starts again with it.
        let kept = state.circuits[ticket.key] ?? (ticket.probe ? nil : Circuit(generation: ticket.generation))
        guard var circuit = kept, circuit.generation == ticket.generation else { return }
        defer { state.circuits[ticket.key] = circuit }
        switch circuit.phase {
        case .closed(var window):
            guard let failure else { return }
            window.record(failure: failure, at: now, window: policy.samplingDuration)
            let (calls, failures) = window.totals(at: now, window: policy.samplingDuration)
            // Divided, not multiplied: 55 of 100 is exactly 0.55 (0.55 × 100 rounds above 55).
            if calls >= policy.minimumThroughput, Double(failures) / Double(calls) >= policy.failureRatio {
                change(&circuit, key: ticket.key, to: .open(until: now + policy.breakDuration), in: &state)
            } else {
                circuit.phase = .closed(window)
            }
        case .halfOpen(let probes):
            guard ticket.probe else { return }
            switch failure {
            case nil: circuit.phase = .halfOpen(probes: max(probes - 1, 0))  // another may probe
            case true?: change(&circuit, key: ticket.key, to: .open(until: now + policy.breakDuration), in: &state)
            case false?: change(&circuit, key: ticket.key, to: .closed(CircuitWindow()), in: &state)
            }
        case .open:
            return
        }
    }

    /// Moves a circuit to a new phase and queues the change for the observer.
    private func change(_ circuit: inout Circuit, key: String, to phase: Circuit.Phase, in state: inout State) {
        let from = circuit.state
        circuit.phase = phase
        circuit.generation += 1
        if observer != nil { state.outbox.append(CircuitStateChange(key: key, from: from, to: circuit.state)) }
    }

    /// Hands queued changes to the observer, oldest first, never under the lock; one caller at a
    /// time reports, so the observer sees the changes in the order they happened.
    private func report() {
        guard let observer else { return }
        while true {
            let batch = state.withLock { state -> [CircuitStateChange] in
                guard !state.reporting, !state.outbox.isEmpty else { return [] }
                state.reporting = true
                defer { state.outbox = [] }
                return state.outbox
            }
            guard !batch.isEmpty else { return }
            for change in batch { observer(change) }
            state.withLock { $0.reporting = false }
        }
    }
}
