import ProjectFile

/// Schemas and instances for the tests, read as ProjectFile reads project files (line and
/// column on every node).
func yaml(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.yaml", format: .yaml).root }
func json(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.json", format: .json).root }
