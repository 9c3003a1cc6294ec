import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// Thousands of mutated streams from a seeded generator: every one ends in a decoded body or a
/// typed error, within the limit.
@Suite struct GzipFuzzTests {
    struct Base {
        let file: String
        let coding: GzipDecoder.Coding
        /// What a successful decode may give: the original, or (multi-member) a whole-member prefix.
        let acceptable: [Data]
        /// Whether the format checks its output, so that a success must be one of `acceptable`.
        let checked: Bool
    }

    static let limit = OutputLimit(bytes: 256 << 10, error: .decodedSize(256 << 10))

    func bases() throws -> [Base] {
        let sample = try Support.sample()
        let second = try Support.fixture("second.txt")
        return [
            Base(file: "python-gzip.json.gz", coding: .gzip, acceptable: [sample], checked: true),
            Base(file: "crafted-all-flags.json.gz", coding: .gzip, acceptable: [sample], checked: true),
            Base(file: "multi-member.gz", coding: .gzip, acceptable: [sample + second, sample], checked: true),
            Base(file: "python-zlib.json.zz", coding: .deflate, acceptable: [sample], checked: false),
            Base(file: "python-raw-deflate.json.deflate", coding: .deflate, acceptable: [sample], checked: false),
        ]
    }

    /// One random mutation: flipped bits, a truncation, inserted bytes, or an overwritten run.
    func mutate(_ input: [UInt8], using rng: inout SeededRandomNumberGenerator) -> [UInt8] {
        var bytes = input
        switch rng.next() % 4 {
        case 0:
            for _ in 0...(rng.next() % 3) {
                let index = Int(rng.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (rng.next() % 8))
            }
        case 1:
            bytes.removeLast(1 + Int(rng.next() % UInt64(bytes.count - 1)))
        case 2:
            let index = Int(rng.next() % UInt64(bytes.count + 1))
            let inserted = (0...(rng.next() % 8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            bytes.insert(contentsOf: inserted, at: index)
        default:
            let index = Int(rng.next() % UInt64(bytes.count))
            let run = min(bytes.count - index, 1 + Int(rng.next() % 16))
            for offset in index..<index + run { bytes[offset] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        return bytes
    }

    @Test func thousandsOfMutatedStreamsEachEndInADecodedBodyOrATypedError() throws {
        var rng = SeededRandomNumberGenerator(seed: 0x6A1B_2C3D)
        var decoded = 0
        var errors: [String: Int] = [:]
        for base in try bases() {
            let original = [UInt8](try Support.fixture(base.file))
            for iteration in 0..<1_000 {
                let mutated = Data(mutate(original, using: &rng))
                var statistics = DecodeStatistics()
                do throws(GzipError) {
                    let outcome = try GzipDecoder.decode(
                        mutated,
                        as: base.coding,
                        limit: Self.limit,
                        plainBody: .never,
                        statistics: &statistics
                    )
                    guard case .decoded(let body) = outcome else {
                        Issue.record("\(base.file) #\(iteration): strict decoding reported a plain body")
                        continue
                    }
                    #expect(body.count <= Self.limit.bytes)
                    if base.checked {
                        #expect(base.acceptable.contains(body), "\(base.file) #\(iteration) decoded to other bytes")
                    }
                    decoded += 1
                } catch {
                    errors[String(describing: error).prefix(40).description, default: 0] += 1
                }
                #expect(statistics.peakCapacity <= Self.limit.bytes + 1)
            }
        }
        let failed = errors.values.reduce(0, +)
        #expect(decoded + failed == 5_000)
        #expect(failed > 2_500, "most mutations must be caught: \(errors)")
    }

    @Test func mutatedBodiesThroughTheMiddlewareNeverCrashOrThrowAnythingButGzipError() async throws {
        var rng = SeededRandomNumberGenerator(seed: 42)
        let pipelineInputs = try bases()
        var outcomes = 0
        for index in 0..<500 {
            let base = pipelineInputs[index % pipelineInputs.count]
            let mutated = Data(mutate([UInt8](try Support.fixture(base.file)), using: &rng))
            let coding = base.coding == .gzip ? "gzip" : "deflate"
            var headers = ["Content-Encoding": coding]
            if rng.next() % 2 == 0 { headers["Content-Length"] = String(mutated.count) }
            do {
                let (data, _) = try await Support.send(mutated, headers: headers)
                #expect(data.count <= GzipOptions.default.maximumDecodedSize)
            } catch {
                #expect(error is GzipError, "\(type(of: error))")
            }
            outcomes += 1
        }
        #expect(outcomes == 500)
    }
}
