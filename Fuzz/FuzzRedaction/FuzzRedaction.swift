import FuzzChecks

/// libFuzzer's entry point: one input through the checks of `FuzzTarget.redaction`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedaction(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTarget.redaction.fuzz(start, count)
}

// Built by Scripts/fuzz.sh with -DHTTP_PIPELINE_LIBFUZZER, libFuzzer supplies `main`. In an
// ordinary build this one replays the files and folders named on the command line.
#if !HTTP_PIPELINE_LIBFUZZER
@main
enum Replay {
    static func main() {
        FuzzTarget.redaction.replay(Array(CommandLine.arguments.dropFirst()))
    }
}
#endif
