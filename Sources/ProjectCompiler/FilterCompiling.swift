import Foundation
import CompositionGraph
import MediaTime

extension CompileSession {
    /// A clip's filters (its track's appended) as graph filters over the clip's timeline
    /// range; each LUT file is read once and its problems reported where the project names it.
    mutating func filters(_ specs: [FilterSpec], over range: TimeRange) -> [LayerFilter] {
        specs.map { spec in
            switch spec {
            case .blur(let radius):
                return .blur(radius: resolve(radius, over: range))
            case .color(let brightness, let contrast, let saturation, let temperature):
                return .color(ColorAdjustment(brightness: resolve(brightness, over: range), contrast: resolve(contrast, over: range),
                                              saturation: resolve(saturation, over: range), temperature: resolve(temperature, over: range)))
            case .lut(let file, let intensity, let origin):
                checkLUT(file, at: origin)
                return .lut(file: file, intensity: resolve(intensity, over: range))
            case .chromaKey(let color, let similarity, let softness, let spill):
                return .chromaKey(ChromaKey(color: color, similarity: resolve(similarity, over: range),
                                            softness: resolve(softness, over: range), spill: resolve(spill, over: range)))
            }
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
