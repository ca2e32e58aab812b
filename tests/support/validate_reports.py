#!/usr/bin/env python3
"""Validates mcpfuzz JSON reports against docs/schemas/mcpfuzz-report.schema.json.

Usage: validate_reports.py SCHEMA REPORT.json...
Each report must validate, and a copy of it with `version` 2 or without `format` must not (so
the schema is shown to reject something); nor, for a report marked stopped early, a copy that
does not say what stopped it. Exit status: 0 as expected, 1 problems, 3 jsonschema
missing.
"""
import copy
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3 cannot import jsonschema: install python3-jsonschema (scripts/bootstrap.sh)")
    sys.exit(3)

with open(sys.argv[1], encoding="utf-8") as handle:
    schema = json.load(handle)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
problems = 0
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as handle:
        report = json.load(handle)
    for error in validator.iter_errors(report):
        print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
        problems += 1
    broken_copies = [{**copy.deepcopy(report), "version": 2},
                     {k: v for k, v in report.items() if k != "format"}]
    if "stopped_early" in report:
        broken_copies.append({k: v for k, v in report.items() if k != "stopped_by"})
    for broken in broken_copies:
        if validator.is_valid(broken):
            print(f"{path}: a broken copy validates too")
            problems += 1
print(f"{len(sys.argv) - 2} reports, {problems} problems")
sys.exit(1 if problems else 0)
