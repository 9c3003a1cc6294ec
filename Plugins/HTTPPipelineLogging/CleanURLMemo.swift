import HTTPPipeline

/// URLs this logging middleware has already found nothing to hide in: a client that calls the
/// same endpoints again and again skips the redaction scan for a set lookup.
///
/// Only a URL the redaction left exactly as it was, and short enough not to be cut, is kept, so the
/// memo never holds a secret the log would not show anyway. It holds at most ``capacity`` URLs and
/// starts again empty when full, so URLs that differ on every call (an ID in the path) cost one
/// lookup and never grow memory.
final class CleanURLMemo: Sendable {
    /// The most URLs kept.
    static let capacity = 256

    private struct State {
        var urls: Set<String> = []
        /// The URL found clean last: compared first, since a client calling the same endpoint
        /// again and again (a poll, a benchmark) is the common case.
        // Comparing two strings costs far less than hashing one.
        var last: String?
    }

    private let state = Locked(State())

    /// Whether `url` was found clean before.
    func contains(_ url: String) -> Bool {
        state.withLock { state in
            if state.last == url { return true }
            guard state.urls.contains(url) else { return false }
            state.last = url
            return true
        }
    }

    /// How many URLs are remembered.
    var count: Int { state.withLock { $0.urls.count } }

    /// Remembers a URL the redaction left unchanged.
    func insert(_ url: String) {
        state.withLock { state in
            if state.urls.count >= Self.capacity { state.urls.removeAll(keepingCapacity: true) }
            state.urls.insert(url)
            state.last = url
        }
    }
}
