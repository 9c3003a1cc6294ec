import Foundation
import HTTPPipeline
import Testing

/// The race on `ContinuousClock`, through the shared deadline scheduler: real time, kept short.
@Suite("Deadline scheduler: races on ContinuousClock")
struct DeadlineSchedulerTests {
    static let timeline = Timeline(ContinuousClock())
    static let error = HTTPTimeoutError(.attempt, after: .milliseconds(50))

    /// A response after `delay` of real time, cancellable.
    static func answer(after delay: Duration) async throws -> HTTPResponse {
        try await Task.sleep(for: delay)
        return HTTPResponse(status: 200)
    }

    @Test("A short timer armed while the scheduler sleeps towards a long one fires on time")
    func aShortTimerAfterALongOneFiresOnTime() async throws {
        // An hour's timer armed and disarmed: the scheduler's thread sleeps towards it. (An hour,
        // not 30 s: under the thread sanitizer a loaded run has held this test's tasks for more
        // than 30 s while the scheduler's own thread ran on time.)
        let quick = try await Self.timeline.race(within: .seconds(3_600), orThrow: Self.error) {
            try await Self.answer(after: .milliseconds(1))
        }
        #expect(quick.status == 200)
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: Self.error) {
            try await Self.timeline.race(within: .milliseconds(50), orThrow: Self.error) {
                try await Self.answer(after: .seconds(10))
            }
        }
        // The timeout, not the 10 s answer, decided the race: the timer fired while the scheduler
        // slept towards the hour. (No upper bound on the time the caller took to resume: a loaded
        // run can hold it, and the outcome was decided on the scheduler's thread at 50 ms.)
        #expect(start.duration(to: clock.now) >= .milliseconds(50))
    }

    @Test(
        "The scheduler's thread is named for what it does, so a debugger's thread list shows it",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func theSchedulersThreadIsNamed() async throws {
        // An answer that takes a moment, so the race arms its timer (one decided at once never
        // does) and the scheduler's thread is started if no test has started it yet.
        _ = try await Self.timeline.race(within: .seconds(3_600), orThrow: Self.error) {
            try await Self.answer(after: .milliseconds(20))
        }
        // The thread names itself as it starts, which may be just after the race armed its timer.
        var names: [String] = []
        for _ in 0..<1_000 where !names.contains("HTTP deadlines\n") {
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
            names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(names.contains("HTTP deadlines\n"), "\(Set(names))")
    }

    @Test("Races whose answer and timer come at the same moment each end exactly once, either way")
    func racesAtTheSameMomentEndOnce() async throws {
        let outcomes = await withTaskGroup(of: Bool?.self, returning: [Bool?].self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do {
                        _ = try await Self.timeline.race(within: .milliseconds(1), orThrow: Self.error) {
                            try await Self.answer(after: .milliseconds(1))
                        }
                        return true
                    } catch let error as HTTPTimeoutError {
                        return error == Self.error ? false : nil
                    } catch {
                        return nil
                    }
                }
            }
            var outcomes: [Bool?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 200)
        #expect(!outcomes.contains(nil), "each race ends with its answer or its timeout, nothing else")
    }

    @Test("A cancelled caller gets CancellationError, not the timeout its timer would give")
    func aCancelledCallerEndsAtOnce() async throws {
        // Ten minutes, not 30 s: a loaded sanitizer run can hold this test's task past a short
        // timer before it gets to cancel.
        let call = Task {
            try await Self.timeline.race(within: .seconds(600), orThrow: Self.error) {
                try await Self.answer(after: .seconds(600))
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
