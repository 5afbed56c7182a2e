internal import CCairo

/// The Cairo version this build links.
public var cairoVersion: String { String(cString: cairo_version_string()) }
