import HTTPPipeline

/// A log sink that keeps every record in memory, for assertions in your tests (and for a debug
/// screen that shows recent exchanges).
///
/// ```swift
/// import HTTPPipelineLogging
/// import Testing
///
/// let sink = InMemoryLogSink()
/// let pipeline = Pipeline(transport: transport) {
///     LoggingMiddleware(level: .headers, sink: sink)
/// }
/// _ = try await pipeline.send(request)
/// #expect(sink.records.count == 1)
/// #expect(!sink.text.contains(secretToken))
/// ```
public final class InMemoryLogSink: HTTPLogSink {
    private let storage = Locked<[HTTPLogRecord]>([])

    /// Creates an empty sink.
    public init() {}

    /// Every record written so far, oldest first.
    public var records: [HTTPLogRecord] {
        storage.value
    }

    /// Every record's `HTTPLogRecord.formatted` text, one after another, separated by newlines.
    public var text: String {
        records.map(\.formatted).joined(separator: "\n")
    }

    /// Keeps the record.
    ///
    /// - Parameter record: The record.
    public func write(_ record: HTTPLogRecord) {
        storage.withLock { $0.append(record) }
    }

    /// Forgets every record.
    public func reset() {
        storage.withLock { $0.removeAll() }
    }
}
