#!/usr/bin/env python3
"""Validate project files against Schemas/reel.schema.json with Python's jsonschema.

Usage: scripts/schema-crosscheck.py FILE...
Prints one line per file: `valid <path>` or `invalid <path>` (a file that does not load
counts as invalid). The Swift test suite compares these verdicts with the Swift validator's.
YAML is loaded with the YAML 1.2 core schema rules the Swift loader uses (PyYAML alone
follows YAML 1.1, where `on`/`yes` are booleans and `01:02` is a number).
"""
import json
import pathlib
import re
import sys

import jsonschema
import yaml

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "Schemas" / "reel.schema.json"


class CoreSchemaLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core schema resolution for plain scalars."""


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     list("-+.0123456789")),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_int)


def load(path):
    text = pathlib.Path(path).read_text(encoding="utf-8")
    if path.endswith(".json") or (not path.endswith((".yaml", ".yml")) and text.lstrip()[:1] in "{["):
        return json.loads(text)
    return yaml.load(text, Loader=CoreSchemaLoader)


def main(paths):
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    for path in paths:
        try:
            verdict = "valid" if validator.is_valid(load(path)) else "invalid"
        except Exception:  # unreadable or malformed: the Swift loader rejects these too
            verdict = "invalid"
        print(f"{verdict} {path}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
