/// A layer or transport that keeps a cut deadline by itself: every wait it makes, other than for
/// the layers below it, ends when the request's deadline is cut (``DeadlineCut``), and a
/// transport aborts its transfer then. A deadline layer with nothing but such layers and such a
/// transport below it cuts the call without racing it in a child task.
///
/// Package machinery: the built-in layers that keep it and `CurlTransport` adopt it; any other
/// layer or transport below a deadline keeps the race.
package protocol KeepsDeadline {
    /// Whether it keeps a cut deadline; `true` unless it says otherwise (a pipeline, for its
    /// layers and its transport).
    var keepsDeadline: Bool { get }
}

extension KeepsDeadline {
    package var keepsDeadline: Bool { true }
}

/// Whether a layer or transport keeps a cut deadline.
package func keepsDeadline(_ value: Any) -> Bool {
    (value as? any KeepsDeadline)?.keepsDeadline ?? false
}

/// While a pipeline binds its layers, innermost first: whether its transport and every layer
/// bound so far keep a cut deadline. A deadline layer reads it as it is bound, so it knows the
/// chain below it.
@usableFromInline
package final class DeadlineBinding: Sendable {
    @TaskLocal package static var current: DeadlineBinding?

    private let state: Locked<Bool>

    init(kept: Bool) {
        state = Locked(kept)
    }

    /// Whether everything bound so far keeps a cut deadline.
    package var kept: Bool { state.value }

    /// Takes `layer` (just bound) into account, in the binding under way, if any.
    @usableFromInline
    static func noteBound(_ layer: any HTTPMiddleware) {
        guard let binding = current, binding.kept else { return }
        if !layers(of: layer).allSatisfy({ keepsDeadline($0) }) { binding.state.withLock { $0 = false } }
    }

    /// Runs `body` (which binds a pipeline's layers over `transport`) within a new binding, and
    /// says whether the whole chain keeps a cut deadline.
    @usableFromInline
    static func binding(over transport: Any, _ body: () -> HTTPNext) -> (HTTPNext, Bool) {
        let binding = DeadlineBinding(kept: keepsDeadline(transport))
        let result = $current.withValue(binding) { body() }
        return (result, binding.kept)
    }
}

/// A deadline cut without a race: the deadline layer arms it for the deadline, the layers and
/// transport below register what ends their waits, and when it fires, each of those runs (a
/// transfer aborted, a queued call let go), so the call unwinds with `CancellationError` and
/// the deadline layer throws its timeout.
package final class DeadlineCut: ScheduledDeadline, @unchecked Sendable {
    // `@unchecked Sendable` like its superclass (whose fields only the scheduler touches, under
    // its lock); what it adds is `state`, a `Locked` every access goes through.
    private struct State: Sendable {
        var fired = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    package override init() {
        super.init()
    }

    /// Runs `handler` when the cut fires, or at once if it has.
    package func onCut(_ handler: @escaping @Sendable () -> Void) {
        let fired = state.withLock { state -> Bool in
            if !state.fired { state.handlers.append(handler) }
            return state.fired
        }
        if fired { handler() }
    }

    /// Whether the cut fired.
    package var hasFired: Bool { state.withLock { $0.fired } }

    /// The deadline passed: every registered handler runs, once.
    package override func fire() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.fired = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}

extension Pipeline: KeepsDeadline {
    /// Whether its layers and its transport all keep a cut deadline.
    package var keepsDeadline: Bool { keepsCutDeadline }
}
