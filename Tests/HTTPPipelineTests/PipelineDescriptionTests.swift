import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@Suite struct PipelineDescriptionTests {
    let transport = ScriptedTransport([])

    @Test func descriptionListsLayersOutermostFirstThenTheTransport() {
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("headers", log: log)
            OrderProbe("logging", log: log)
            Trail(tag: "x")
        }
        #expect(pipeline.description == "Pipeline(headers -> logging -> Trail(x) -> ScriptedTransport)")
        #expect(pipeline.layerNames == ["headers", "logging", "Trail(x)"])
        #expect(pipeline.transportName == "ScriptedTransport")
    }

    @Test func arrayFormDescribesItselfLikeTheBuilderForm() {
        let built = Pipeline(transport: transport) {
            Trail(tag: "a")
            ShortCircuit()
        }
        let array = Pipeline(transport: transport, middleware: [Trail(tag: "a"), ShortCircuit()])
        #expect(built.description == array.description)
        #expect(array.description == "Pipeline(Trail(a) -> ShortCircuit -> ScriptedTransport)")
    }

    @Test func conditionalAndLoopLayersAppearOnlyWhenPresent() {
        let tags = ["1", "2"]
        let pipeline = Pipeline(transport: transport) {
            if false { Trail(tag: "never") }
            for tag in tags { Trail(tag: tag) }
            if true { ShortCircuit() } else { Trail(tag: "else") }
        }
        #expect(pipeline.layerNames == ["Trail(1)", "Trail(2)", "ShortCircuit"])
    }

    @Test func productionTransportIsNamedByItsType() {
        let pipeline = Pipeline(transport: URLSessionTransport()) { ShortCircuit() }
        #expect(pipeline.description == "Pipeline(ShortCircuit -> URLSessionTransport)")
    }
}
