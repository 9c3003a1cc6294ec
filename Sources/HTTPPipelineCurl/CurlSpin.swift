import CHTTPPipelineCurl
import Foundation
import HTTPPipeline

/// The engine thread's short wait without sleeping: after it took a command or finished a
/// transfer, it polls its sockets and its queue for up to
/// ``CurlTransport/Configuration/spinBeforeSleeping`` before it sleeps in `curl_multi_poll`.
///
/// A sleeping thread costs a wake-up when the answer or the caller's next request comes: a
/// system call on the waking side, and tens of microseconds on a virtual machine before the
/// sleeper runs again. A loopback or same-rack answer often comes sooner than that. The waits are
/// bounded twice: each by its window (and by libcurl's next timer), and the ones that came up
/// empty, together, by a tenth of each period of 10 ms of the thread's time, so a thread whose waits keep finding nothing (a
/// slow server, many idle connections) sleeps instead of burning a core. A wait that found work
/// is not counted against the budget: it replaced a sleep and a wake-up.
struct CurlSpin {
    /// The longest one wait, in nanoseconds; 0 turns waiting off.
    private let window: UInt64
    /// When the current budget period began, and how long the empty waits in it took.
    private var periodStart: UInt64 = 0
    private var wasted: UInt64 = 0

    private static let period: UInt64 = 10_000_000
    private static let budget: UInt64 = period / 10
    private static let longestWindow = Duration.milliseconds(1)

    /// - Parameter window: The longest one wait; at most 1 ms is used, and none below zero. On
    ///   a machine with one processor the thread never waits this way: the caller it waits for
    ///   would need the processor it spins on.
    init(window: Duration) {
        let usable = ProcessInfo.processInfo.activeProcessorCount > 1 ? window : .zero
        self.window = UInt64(min(max(usable, .zero), Self.longestWindow).wholeNanoseconds)
    }

    /// Whether the thread waits at all (a window above zero, more than one processor).
    var isOn: Bool { window > 0 }

    /// Polls `multi`'s sockets and `engine`'s queue without sleeping until one is ready, or the
    /// window, the budget or the time until libcurl's next timer runs out; returns whether one is
    /// ready.
    mutating func poll(_ multi: UnsafeMutableRawPointer, engine: CurlEngine, dueInMilliseconds: Int) -> Bool {
        guard isOn else { return false }
        let start = DispatchTime.now().uptimeNanoseconds
        if start &- periodStart >= Self.period {
            periodStart = start
            wasted = 0
        }
        guard wasted < Self.budget else { return false }
        let end = start + min(window, Self.budget - wasted, UInt64(max(dueInMilliseconds, 0)) * 1_000_000)
        var now = start
        var ready: Int32 = 0
        while now < end {
            if engine.hasCommands { return true }
            curl_multi_poll(multi, nil, 0, 0, &ready)
            if ready > 0 { return true }
            now = DispatchTime.now().uptimeNanoseconds
        }
        wasted += now &- start
        return false
    }
}
