import ProjectFile

/// Documents for the tests from text, read as ProjectFile reads project files (line and column
/// on every node).
public func yaml(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.yaml", format: .yaml).root }
public func json(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.json", format: .json).root }
