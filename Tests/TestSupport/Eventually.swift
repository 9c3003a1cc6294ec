import Foundation

/// Polls `condition` on the real clock every 10 ms until it holds or `limit` passes: for waiting on
/// another thread's or task's progress (a server-side effect, a task reaching a lock), never for
/// the behaviour under test. The limit is generous (a minute unless told) because only a failing
/// check waits it out, and a sanitized run on two cores can stall for seconds.
///
/// It gives up only once `limit` has passed *and* it has polled as often as `limit` allows
/// (one poll per 10 ms): in a run whose every test starts at once on two cores, a task can wait
/// a minute for its turn, and so can the task it waits for; counting polls, a wait that starved
/// as long as the task it waits on still gives that task its turns.
///
/// - Parameters:
///   - limit: The longest wait.
///   - condition: What to wait for; checked once more when the time is up.
/// - Returns: Whether `condition` held; check it with `#expect` where the wait is part of the test.
/// - Throws: What `condition` threw.
@discardableResult
package func eventually(within limit: Duration = .seconds(60), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    let polls = max(Int(limit / .milliseconds(10)), 1)
    var polled = 0
    while clock.now < deadline || polled < polls {
        if try condition() { return true }
        polled += 1
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
