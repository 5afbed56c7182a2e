import CompositionGraph
import FileSafety

// Every command that writes checks its outputs with `FileSafety.OutputSafety` before any work:
// an output may not be a folder, nor be or resolve to a file the command reads. The refusal
// (`OutputRefusal`: the output, the input and its role) names both.

/// Throws the `OutputRefusal` of the first of `outputs` that is a folder or one of `inputs`.
public func refuseUnsafeOutputs(_ outputs: [String], reading inputs: [ReadFile], exampleName: String) throws(OutputRefusal) {
    let safety = OutputSafety(reading: inputs)
    for output in outputs {
        if let refusal = safety.check(output, exampleName: exampleName) { throw refusal }
    }
}

/// `refuseUnsafeOutputs` against the project file, its vars file and every file the graph
/// reads (media, font files). `varsInput`: how the caller's user named the vars file (an option).
public func refuseUnsafeOutputs(_ outputs: [String], project: String, varsFile: String?, varsInput: String? = nil, graph: CompositionGraph,
                                exampleName: String) throws(OutputRefusal) {
    let inputs = [ReadFile.project(project)] + (varsFile.map { [ReadFile.varsFile($0, input: varsInput)] } ?? []) + graph.readFiles()
    try refuseUnsafeOutputs(outputs, reading: inputs, exampleName: exampleName)
}
