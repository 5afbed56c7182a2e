import Foundation
import ProjectFile

/// Any JSON value, as a client's `metadata` and a template's project are kept and shown: decoded
/// and encoded whole. A number stays a whole number when it is one, else the nearest decimal.
enum AnyJSON: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case decimal(Decimal)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if let decoder = decoder as? NodeDecoder {
            self.init(decoder.node)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let flag = try? value.decode(Bool.self) {
            self = .bool(flag)
        } else if let whole = try? value.decode(Int64.self) {
            self = .integer(whole)
        } else if let number = try? value.decode(Decimal.self) {
            self = .decimal(number)
        } else if let text = try? value.decode(String.self) {
            self = .string(text)
        } else if let items = try? value.decode([AnyJSON].self) {
            self = .array(items)
        } else {
            self = .object(try value.decode([String: AnyJSON].self))
        }
    }

    /// A node of a loaded document as JSON (YAML's scalars are its strings, numbers and booleans).
    init(_ node: Node) {
        switch node.value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let text): self = Int64(text).map(AnyJSON.integer) ?? .decimal(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(AnyJSON.init))
        case .object(let members): self = .object(Dictionary(members.map { ($0.key, AnyJSON($0.value)) }) { $1 })
        }
    }

    /// A var's value as a vars file holds it.
    init(_ value: Node.Value) { self.init(Node(value, at: SourceLocation(file: "", line: 0, column: 0))) }

    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let flag): try value.encode(flag)
        case .integer(let whole): try value.encode(whole)
        case .decimal(let number): try value.encode(number)
        case .string(let text): try value.encode(text)
        case .array(let items): try value.encode(items)
        case .object(let members): try value.encode(members)
        }
    }
}
