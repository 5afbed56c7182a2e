import CompositionGraph
import Foundation
import Looks
import LUTFiles
import MediaTime

extension CompileSession {
    /// A clip's filters (its track's appended) as graph filters over the clip's timeline
    /// range; each LUT file is read once and its problems reported where the project names it.
    mutating func filters(_ specs: [FilterSpec], over range: TimeRange) -> [LayerFilter] {
        specs.map { spec in
            var values: [String: LayerFilter.Value] = [:]
            for parameter in spec.look.parameters {
                switch spec.values[parameter.name]! {
                case .number(let number): values[parameter.name] = .number(resolve(number, over: range))
                case .color(let color): values[parameter.name] = .color(color)
                case .lut(let file):
                    checkLUT(file.path, at: file.origin)
                    values[parameter.name] = .lut(file.path)
                }
            }
            return LayerFilter(spec.look, values)
        }
    }

    private mutating func checkLUT(_ file: String, at origin: Origin) {
        let problem: CubeLUTError?
        if let known = checkedLUTs[file] {
            problem = known
        } else {
            do {
                _ = try CubeLUT(contentsOf: file)
                problem = nil
            } catch let error as CubeLUTError {
                problem = error
            } catch {
                problem = CubeLUTError(path: file, line: nil, message: "\(error)")
            }
            checkedLUTs[file] = problem
        }
        guard let problem else { return }
        if problem.line == nil, !FileManager.default.fileExists(atPath: file) {
            missingFile = true
            problems.report("the LUT file \(file) does not exist", at: origin, hint: "check the path (relative to the project file)")
        } else {
            problems.report("the LUT file is not usable: \(problem)", at: origin,
                            hint: "a .cube file has LUT_3D_SIZE N, optional DOMAIN_MIN/DOMAIN_MAX, then N³ lines of three numbers")
        }
    }
}
