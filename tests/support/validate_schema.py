#!/usr/bin/env python3
"""Validates JSON values for the generator tests, one JSON object per input line:

  {"revision": "2025-11-25", "message": {...}}
      a JSON-RPC message; valid against JSONRPCRequest (with an id) or JSONRPCNotification,
      and against the revision's definition for its method when the schema has one;
  {"schema": {...}, "instance": ..., "valid": true|false}
      an instance that must (or must not) validate against a schema (a tool's inputSchema).

Usage: validate_schema.py LINES_FILE SCHEMA_ROOT (SCHEMA_ROOT/<revision>/schema.json).
Prints one line per problem. Exit status: 0 all as expected, 1 problems, 3 jsonschema missing.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3 cannot import jsonschema: install python3-jsonschema (scripts/bootstrap.sh)")
    sys.exit(3)

schemas = {}


def revision_schema(root, revision):
    if revision not in schemas:
        with open(f"{root}/{revision}/schema.json", encoding="utf-8") as handle:
            schema = json.load(handle)
        definitions_key = "$defs" if "$defs" in schema else "definitions"
        by_method = {}
        for name, definition in schema[definitions_key].items():
            method = definition.get("properties", {}).get("method", {}).get("const")
            if method and (name.endswith("Request") or name.endswith("Notification")):
                by_method.setdefault(method, []).append(name)
        schemas[revision] = (schema, definitions_key, by_method)
    return schemas[revision]


def check(schema, definitions_key, name, instance):
    wrapper = dict(schema)
    wrapper["$ref"] = f"#/{definitions_key}/{name}"
    validator = jsonschema.validators.validator_for(schema)(wrapper)
    error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
    return None if error is None else f"{name}: {error.message} at {list(error.absolute_path)}"


def main():
    lines_file, root = sys.argv[1], sys.argv[2]
    problems = 0
    with open(lines_file, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            item = json.loads(line)
            if "message" in item:
                schema, key, by_method = revision_schema(root, item["revision"])
                message = item["message"]
                names = ["JSONRPCRequest" if "id" in message else "JSONRPCNotification"]
                names += by_method.get(message.get("method"), [])
                failures = [check(schema, key, name, message) for name in names]
                # A method some client and server both send has two definitions: one must hold.
                generic, specific = failures[0], failures[1:]
                if generic or (specific and all(specific)):
                    problems += 1
                    print(f"line {number} ({item['revision']}): "
                          f"{generic or specific[0]}: {json.dumps(message)[:300]}")
            else:
                validator = jsonschema.validators.validator_for(item["schema"])(item["schema"])
                valid = validator.is_valid(item["instance"])
                if valid != item["valid"]:
                    problems += 1
                    print(f"line {number}: expected {'valid' if item['valid'] else 'invalid'}: "
                          f"{json.dumps(item['instance'])[:200]} for {json.dumps(item['schema'])[:200]}")
    sys.exit(1 if problems else 0)


main()
