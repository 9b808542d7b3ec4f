#!/usr/bin/env python3
# schema-check.py — validate result files against docs/result.schema.json
# with a real JSON Schema validator (python3-jsonschema). Usage:
#   schema-check.py SCHEMA FILE...
# Files that are not result files (not JSON, or another "schema") are
# passed over. Prints a line per invalid file, then "checked N"; exit 0 all
# valid, 1 some invalid, 3 no validator here.
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(3)

with open(sys.argv[1]) as f:
    schema = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema)
bad = checked = 0
for path in sys.argv[2:]:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        continue
    if not isinstance(doc, dict) or doc.get("schema") != "bakeoff-result/1":
        continue
    checked += 1
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        bad += 1
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print(f"{path}: {where}: {e.message[:300]} ({len(errors)} error(s))")
print(f"checked {checked}")
sys.exit(1 if bad else 0)
