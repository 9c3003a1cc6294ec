import Foundation
import HTTPPipeline

extension Redaction {
    /// A short, secret-free name for an error: `cancelled`, `abandoned` (a body dropped unread),
    /// `URLError.timedOut`, or its type.
    package static func errorKind(of error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        if error is BodyTee.Abandoned { return "abandoned" }
        if let urlError = error as? URLError { return "URLError." + ErrorWords.name(of: urlError.code) }
        return String(describing: type(of: error))
    }

    /// An error in words: a `URLError` by name, number and host (Foundation's own text is a number
    /// on Linux and the whole URL on Darwin); any other error by its description, redacted; either
    /// cut to `limit` bytes.
    package func describe(_ error: any Error, limit: Int) -> String {
        guard error is URLError else { return text(String(describing: error), limit: limit) }
        let words = ErrorWords.describe(error)
        guard words.utf8.count > limit else { return words }
        return SafeCut.render(Array(words.utf8), limit: limit, unscanned: 0)
    }
}
