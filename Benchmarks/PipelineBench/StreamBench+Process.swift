import Foundation

extension StreamBench {
    /// The stream suite run in a process of its own, for `--suite all`: its memory figures are
    /// growth above where resident memory was, and after the other suites glibc's arenas hold
    /// tens of megabytes of fragmented free heap that a large download re-touches (29 MB measured
    /// in a full run, 0.2-0.8 MB in the suite alone). A fresh process measures the download, not
    /// the earlier suites. Returns the child's keys; a child that fails or cannot start sets
    /// `failed` (its own messages reach standard error as they are).
    static func measurementsInChildProcess(mebibytes: Int, rounds: Int, failed: inout Bool) -> [(String, Double)] {
        let child = Process()
        child.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [
            "--suite", "stream", "--json", "--stream-mib", String(mebibytes), "--rounds", String(rounds),
        ]
        let output = Pipe()
        child.standardOutput = output
        do {
            try child.run()
        } catch {
            FileHandle.standardError.write(Data("stream: the child process did not start: \(error)\n".utf8))
            failed = true
            return []
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        if child.terminationStatus != 0 { failed = true }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            FileHandle.standardError.write(Data("stream: the child process printed no JSON object\n".utf8))
            failed = true
            return []
        }
        // Report keeps its entries in order; JSON objects do not, so the keys are sorted.
        return object.keys.sorted().compactMap { key in (object[key] as? NSNumber).map { (key, $0.doubleValue) } }
    }
}
