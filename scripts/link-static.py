#!/usr/bin/env python3
"""Links a product of a SwiftPM release build again with the Swift runtime in it.

Usage: scripts/link-static.py BUILD_FOLDER PRODUCT OUTPUT

`swift build --static-swift-stdlib` passes -static-stdlib to every compile as well as to the
link, so a build with it shares no object with a plain release build: everything is compiled
twice. At compile time the flag changes only which libraries the objects ask the linker for
(static Foundation needs CoreFoundation and ICU named too), not their code. So this runs the
link SwiftPM recorded for PRODUCT in BUILD_FOLDER's release.yaml (the same objects, libraries
and flags) with -static-stdlib and those libraries, writing OUTPUT. What it makes needs no
Swift toolchain on the machine that runs it.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def link_arguments(manifest_path: str, product: str) -> list[str]:
    with open(manifest_path, encoding="utf-8") as f:
        manifest = f.read()
    node = re.search(r'^  "C\.%s-[^"]*-release\.exe":\n(?:    .*\n)*?    args: (\[.*\])$' % re.escape(product), manifest, re.M)
    if node is None:
        sys.exit(f"error: {manifest_path} records no link of '{product}'; run swift build -c release --product {product} first")
    return json.loads(node.group(1))


def static_foundation_libraries(swiftc: str) -> list[str]:
    """The libraries an object that imports Foundation asks for when compiled with
    -static-stdlib: read off such an object compiled here, with this toolchain."""
    folder = os.path.dirname(swiftc)
    with tempfile.TemporaryDirectory() as scratch:
        source, probe = os.path.join(scratch, "probe.swift"), os.path.join(scratch, "probe.o")
        with open(source, "w", encoding="utf-8") as f:
            f.write("import Foundation\nprint(Date())\n")
        subprocess.run([swiftc, "-static-stdlib", "-O", "-c", source, "-o", probe], check=True)
        extracted = subprocess.run([os.path.join(folder, "swift-autolink-extract"), probe, "-o", "-"],
                                   check=True, capture_output=True, text=True).stdout
    return sorted(set(extracted.split()))


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    build, product, output = sys.argv[1:]
    arguments = link_arguments(os.path.join(build, "release.yaml"), product)
    if "-o" not in arguments:
        sys.exit(f"error: the link of '{product}' in {build}/release.yaml names no output (-o)")
    arguments[arguments.index("-o") + 1] = os.path.abspath(output)
    arguments += ["-static-stdlib"] + static_foundation_libraries(arguments[0])
    subprocess.run(arguments, check=True)


if __name__ == "__main__":
    main()
