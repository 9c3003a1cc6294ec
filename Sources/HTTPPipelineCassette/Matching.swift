import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

/// What differs between a live request and a recorded one, under the rules.
enum Matching {
    /// The differences, most important first; empty when the request matches.
    static func differences(
        _ live: LiveRequest,
        _ recorded: RecordedExchange,
        rules: MatchRules
    ) -> [CassetteError.Difference] {
        var found: [CassetteError.Difference] = []
        if live.method != recorded.method { found.append(.method(recorded: recorded.method, live: live.method)) }
        if rules.matchesOrigin, live.parts.origin != recorded.parts.origin {
            found.append(.origin(recorded: String(recorded.parts.origin), live: String(live.parts.origin)))
        }
        if live.parts.path != recorded.parts.path {
            found.append(.path(recorded: String(recorded.parts.path), live: String(live.parts.path)))
        }
        found += queryDifferences(live.parts.queryItems, recorded.parts.queryItems, ignoring: rules.ignoredQueryItems)
        found += headerDifferences(live, recorded, rules: rules.headers)
        if let matcher = rules.bodies, !matcher(recorded.body, live.body) { found.append(.body) }
        return found
    }

    /// Query items that differ, by name in order of first appearance.
    static func queryDifferences(
        _ live: [(name: String, value: String)],
        _ recorded: [(name: String, value: String)],
        ignoring ignored: Set<String>
    ) -> [CassetteError.Difference] {
        if live.elementsEqual(recorded, by: { $0.name == $1.name && $0.value == $1.value }) { return [] }
        var names: [String] = []
        for item in live + recorded where !ignored.contains(item.name) && !names.contains(item.name) {
            names.append(item.name)
        }
        return names.compactMap { name in
            let liveValues = live.filter { $0.name == name }.map(\.value)
            let recordedValues = recorded.filter { $0.name == name }.map(\.value)
            guard liveValues != recordedValues else { return nil }
            let recorded = recordedValues.isEmpty ? nil : recordedValues.joined(separator: ", ")
            return .queryItem(
                name: name,
                recorded: recorded,
                live: shown(liveValues.isEmpty ? nil : liveValues.joined(separator: ", "), besides: recorded)
            )
        }
    }

    /// Compared headers that differ, by name.
    static func headerDifferences(
        _ live: LiveRequest,
        _ recorded: RecordedExchange,
        rules: MatchRules.Headers
    ) -> [CassetteError.Difference] {
        comparedHeaderNames(live, recorded, rules: rules).compactMap { name in
            let values = recorded.headers.filter { $0.name == name }.map(\.value)
            let recordedValue = values.isEmpty ? nil : values.joined(separator: ", ")
            let liveValue = live.header(name)
            guard recordedValue != liveValue else { return nil }
            return .header(name: name, recorded: recordedValue, live: shown(liveValue, besides: recordedValue))
        }
    }

    /// The names of the headers compared, lowercased.
    static func comparedHeaderNames(
        _ live: LiveRequest,
        _ recorded: RecordedExchange,
        rules: MatchRules.Headers
    ) -> [String] {
        switch rules {
        case .none: return []
        case .only(let chosen): return chosen.sorted()
        case .allExcept(let ignored):
            var all: [String] = []
            for name in live.fields.map({ $0.name.canonicalName }) + recorded.headers.map(\.name)
            where !ignored.contains(name) && !all.contains(name) {
                all.append(name)
            }
            return all
        }
    }

    /// Which live secret stands where the recording had which placeholder, in the compared
    /// headers: each live value's secrets paired in order with the recorded value's placeholder
    /// numbers, where both have as many.
    static func placeholderPairs(
        _ live: LiveRequest,
        _ recorded: RecordedExchange,
        rules: MatchRules.Headers
    ) -> [(secret: String, number: Int)] {
        comparedHeaderNames(live, recorded, rules: rules).flatMap { name -> [(secret: String, number: Int)] in
            let numbers = recorded.placeholderNumbers[name] ?? []
            guard !numbers.isEmpty, let secrets = live.secrets(inHeader: name), secrets.count == numbers.count else {
                return []
            }
            return Array(zip(secrets, numbers))
        }
    }

    /// A live value as an error message shows it: the mark where the recorded one was redacted
    /// (the recording judged it secret, whatever the redaction replaying it says).
    static func shown(_ live: String?, besides recorded: String?) -> String? {
        guard live != nil, let recorded, recorded.contains(Redaction.mark) else { return live }
        return Redaction.mark
    }

    /// How far a recorded entry is from a request: a different method or path weighs more than
    /// a query item or header.
    static func weight(_ differences: [CassetteError.Difference]) -> Int {
        differences.reduce(0) { total, difference in
            switch difference {
            case .method, .path, .origin: total + 10
            case .queryItem, .header, .body: total + 1
            }
        }
    }
}
