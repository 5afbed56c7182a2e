import ProjectFile

func yaml(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.yaml", format: .yaml).root }
func json(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.json", format: .json).root }
