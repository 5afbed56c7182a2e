// RenderEngine: being built (see the issues).
