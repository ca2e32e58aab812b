#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema (2.1.0-rtm.5, as the npm package
@microsoft/jest-sarif ships it into tests/servers/node_modules) and against what
GitHub code scanning needs to show a result: at least one location on every result, whose
physical location is a path relative to the repository root (no scheme, not absolute, no "..")
with uriBaseId %SRCROOT% and a start line.

Usage: validate_sarif.py SCHEMA LOG.sarif...
A copy of each log without `version` must not validate (so the schema is shown to reject
something). Exit status: 0 as expected, 1 problems, 3 jsonschema missing.
"""
import json
import re
import sys

try:
    import jsonschema
except ImportError:
    print("python3 cannot import jsonschema: install python3-jsonschema (scripts/bootstrap.sh)")
    sys.exit(3)

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def github_problems(log):
    for run in log.get("runs", []):
        for number, result in enumerate(run.get("results", [])):
            where = f"results[{number}] ({result.get('ruleId')})"
            locations = result.get("locations") or []
            if not locations:
                yield f"{where}: no location, which code scanning needs to show it"
            for location in locations:
                physical = location.get("physicalLocation", {})
                artifact = physical.get("artifactLocation", {})
                uri = artifact.get("uri", "")
                if not uri or SCHEME.match(uri) or uri.startswith("/") or ".." in uri.split("/"):
                    yield f"{where}: location '{uri}' is not a path relative to the repository"
                if " " in uri:
                    yield f"{where}: location '{uri}' is not percent-encoded"
                if artifact.get("uriBaseId") != "%SRCROOT%":
                    yield f"{where}: location '{uri}' has no uriBaseId %SRCROOT%"
                if physical.get("region", {}).get("startLine", 0) < 1:
                    yield f"{where}: location '{uri}' has no start line"


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft4Validator.check_schema(schema)
    validator = jsonschema.Draft4Validator(schema,
                                           format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    problems = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
        for error in validator.iter_errors(log):
            print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
            problems += 1
        for problem in github_problems(log):
            print(f"{path}: {problem}")
            problems += 1
        if validator.is_valid({k: v for k, v in log.items() if k != "version"}):
            print(f"{path}: a copy without version validates too")
            problems += 1
    print(f"{len(sys.argv) - 2} SARIF logs, {problems} problems")
    sys.exit(1 if problems else 0)


main()
