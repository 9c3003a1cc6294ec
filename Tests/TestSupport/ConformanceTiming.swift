import Foundation

/// How soon the transport conformance suites require a cancelled call to end: the
/// `TRANSPORT_PROMPTNESS_MS` environment variable's milliseconds, else 30 s.
///
/// The suite's own default, 100 ms, holds for both transports in a process of their own (CI runs
/// the two conformance suites alone with `TRANSPORT_PROMPTNESS_MS=100`); beside the whole test
/// suite on two cores, a prompt call can wait that long for a thread (a sanitized run once starved
/// the pool for 42 s). A call that ignores its cancellation still fails: the slow server answers
/// after 60 s, the endless body never ends.
package let conformancePromptness: Duration = {
    let milliseconds = ProcessInfo.processInfo.environment["TRANSPORT_PROMPTNESS_MS"].flatMap(Int.init)
    return milliseconds.map { .milliseconds($0) } ?? .seconds(30)
}()
