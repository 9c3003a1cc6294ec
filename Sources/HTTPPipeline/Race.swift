import Foundation

/// What a race's operation returns: a response, or one chunk of a body.
enum RaceValue: Sendable {
    case response(HTTPResponse)
    case chunk(Data?)
}

/// One race of ``Timeline``: the outcome decided first, by the operation, the timer or the
/// caller's cancellation, and the caller waiting for it. Resumed exactly once, under the lock.
///
/// `@unchecked Sendable` like its superclass, and why that is safe: besides what the superclass
/// guards, it stores a constant error and `state`, a ``Locked`` every access goes through.
///
/// Not generic: a generic class looks up its metadata at run time on every allocation, which the
/// happy path pays on every call. What a race can return is one of ``RaceValue``'s cases.
final class Race: ScheduledDeadline, @unchecked Sendable {
    typealias T = RaceValue

    private struct State: Sendable {
        var decided: Result<T, any Error>?
        var waiting: UnsafeContinuation<Result<T, any Error>, Never>?
    }

    private let error: HTTPTimeoutError
    private let state = Locked(State())

    init(error: HTTPTimeoutError) {
        self.error = error
        super.init()
    }

    /// Starts the operation as a child of `group`, at once on this thread where the platform
    /// allows.
    func start(_ operation: @escaping @Sendable () async throws -> T, in group: inout TaskGroup<Void>) {
        let body: @Sendable () async -> Void = { [self] in
            do {
                resolve(.success(try await operation()))
            } catch {
                resolve(.failure(error))
            }
        }
        // Immediate children came with Swift 6.2 (the package builds from 6.1) and macOS 26:
        // before either, the child is an ordinary one, which starts on another thread.
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            group.addImmediateTask(operation: body)
            return
        }
        #endif
        group.addTask(operation: body)
    }

    /// The timer fired: the race ends with the error, unless something came first.
    override func fire() {
        resolve(.failure(error))
    }

    /// The outcome, if one was decided.
    var decided: Result<T, any Error>? { state.withLock { $0.decided } }

    /// Decides the outcome, the first time only; later calls do nothing.
    func resolve(_ outcome: Result<T, any Error>) {
        let waiting = state.withLock { state -> UnsafeContinuation<Result<T, any Error>, Never>? in
            guard state.decided == nil else { return nil }
            state.decided = outcome
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: outcome)
    }

    /// Waits for the outcome; the caller's cancellation decides it as `CancellationError` (and
    /// reaches the operation, a child of the caller's task group, by itself).
    func outcome() async -> Result<T, any Error> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, any Error>, Never>) in
                let decided = state.withLock { state -> Result<T, any Error>? in
                    if let decided = state.decided { return decided }
                    state.waiting = continuation
                    return nil
                }
                if let decided { continuation.resume(returning: decided) }
            }
        } onCancel: {
            resolve(.failure(CancellationError()))
        }
    }
}
