import Foundation
import PipelineSoak

/// The full soak: 100,000 requests through the standard pipeline over the fault-injecting
/// transport, with resident memory read before and after.
enum SoakBench {
    /// Growth in resident memory over the run above which the bench calls it a leak.
    static let residentMarginMegabytes = 4.0

    /// The soak's figures; prints every broken invariant to standard error and sets `failed`.
    static func measurements(requests: Int, failed: inout Bool) async -> [(String, Double)] {
        let report = await SoakRun.run(SoakConfiguration(requests: requests))
        var entries: [(String, Double)] = [
            ("soak_requests", Double(report.requests)),
            ("soak_answered_once", Double(report.answered)),
            ("soak_seconds", report.seconds),
            ("soak_requests_per_second", Double(report.requests) / max(report.seconds, 1e-9)),
        ]
        for (outcome, count) in report.outcomes.sorted(by: { $0.key.description < $1.key.description }) {
            entries.append(("soak_outcome_\(outcome.description.prefix { $0 != " " })", Double(count)))
        }
        entries += [
            ("soak_revocations", Double(report.revocations)),
            ("soak_refreshes", Double(report.refreshes)),
            ("soak_accounts", Double(report.accounts)),
            ("soak_token_answers_lost", Double(report.tokenAnswersLost)),
            ("soak_token_grace_reuses", Double(report.graceReuses)),
            ("soak_log_records", Double(report.logRecords)),
            ("soak_log_records_with_secrets", Double(report.logRecordsWithSecrets)),
        ]
        if let before = report.residentBefore, let after = report.residentAfter,
            let growth = report.residentGrowthMegabytes
        {
            entries += [
                ("soak_resident_before_mb", Double(before) / 1e6), ("soak_resident_after_mb", Double(after) / 1e6),
                ("soak_resident_growth_mb", growth),
            ]
            if growth > residentMarginMegabytes {
                failed = true
                FileHandle.standardError.write(
                    Data("soak: resident memory grew \(growth) MB, more than \(residentMarginMegabytes) MB\n".utf8))
            }
        }
        entries.append(("soak_violations", Double(report.violations.count)))
        for violation in report.violations {
            failed = true
            FileHandle.standardError.write(Data("soak: \(violation)\n".utf8))
        }
        return entries
    }
}
