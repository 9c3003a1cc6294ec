import Foundation

/// A suite run in a process of its own, its JSON read back: under `--suite all` the suites that
/// measure a whole process's behaviour (resident memory, requests a second over sockets) run
/// fresh, not after the others have fragmented glibc's arenas and grown the process's threads.
enum ChildProcess {
    /// The `--json` figures of this executable run with `arguments`; `failed` is set when it
    /// fails, or prints no JSON object.
    static func measurements(_ arguments: [String], label: String, failed: inout Bool) -> [(String, Double)] {
        let child = Process()
        child.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments + ["--json"]
        let output = Pipe()
        child.standardOutput = output
        do {
            try child.run()
        } catch {
            FileHandle.standardError.write(Data("\(label): the child process did not start: \(error)\n".utf8))
            failed = true
            return []
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        if child.terminationStatus != 0 { failed = true }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            FileHandle.standardError.write(Data("\(label): the child process printed no JSON object\n".utf8))
            failed = true
            return []
        }
        // Report keeps its entries in order; JSON objects do not, so the keys are sorted.
        return object.keys.sorted().compactMap { key in (object[key] as? NSNumber).map { (key, $0.doubleValue) } }
    }
}
