// ProjectCompiler: being built (see the issues).
