import HTTPPipeline

/// URLs this logging middleware has already found nothing to hide in: a client that calls the
/// same endpoints again and again skips the redaction scan (about 6,000 instructions for a short
/// URL) for a set lookup.
///
/// Only a URL the redaction left exactly as it was, and short enough not to be cut, is kept, so the
/// memo never holds a secret the log would not show anyway. It holds at most ``capacity`` URLs and
/// starts again empty when full, so URLs that differ on every call (an ID in the path) cost one
/// lookup and never grow memory.
final class CleanURLMemo: Sendable {
    /// The most URLs kept.
    static let capacity = 256

    private let urls = Locked<Set<String>>([])

    /// Whether `url` was found clean before.
    func contains(_ url: String) -> Bool {
        urls.withLock { $0.contains(url) }
    }

    /// How many URLs are remembered.
    var count: Int { urls.withLock { $0.count } }

    /// Remembers a URL the redaction left unchanged.
    func insert(_ url: String) {
        urls.withLock { urls in
            if urls.count >= Self.capacity { urls.removeAll(keepingCapacity: true) }
            urls.insert(url)
        }
    }
}
