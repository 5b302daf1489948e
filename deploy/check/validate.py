#!/usr/bin/env python3
"""Validates rendered Kubernetes manifests, fully offline.

    validate.py --kubernetes-version 1.34.0 [--kubernetes-version ...] FILE...

Every object of every FILE (multi-document YAML, as `kubectl kustomize`
writes it) is checked strictly (unknown fields are errors):
  * custom resources against the schemas in `schemas/` beside this script,
    named `<kind>-<apiVersion with / as ->.json`;
  * everything else with kubernetes-validate's packaged schemas at each
    version given.
A kind with no schema is an error, not a warning. Exit status 1 on any
error; one line per object.
"""

import argparse
import json
import pathlib
import sys

import jsonschema
import yaml
from kubernetes_validate import utils as kv

SCHEMAS = pathlib.Path(__file__).resolve().parent / "schemas"


def crd_schema(obj):
    api = obj.get("apiVersion", "").replace("/", "-")
    path = SCHEMAS / f"{obj.get('kind', '').lower()}-{api}.json"
    return json.loads(path.read_text()) if path.exists() else None


def check(obj, versions):
    """Error messages for one object (empty when it is valid)."""
    schema = crd_schema(obj)
    if schema is not None:
        validator = jsonschema.Draft202012Validator(schema)
        return [
            f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in sorted(validator.iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))
        ]
    errors = []
    for version in versions:
        try:
            kv.validate(obj, version, strict=True)
        except kv.ValidationError as e:
            path = ".".join(map(str, e.path))
            errors.append(f"Kubernetes {e.version}: {path}: {e.message}")
        except kv.SchemaNotFoundError as e:
            errors.append(f"no schema: {e.message}")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubernetes-version", action="append", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failed = 0
    for file in args.files:
        with open(file) as f:
            objects = [o for o in yaml.safe_load_all(f) if o]
        if not objects:
            print(f"ERROR {file}: no objects")
            failed += 1
        for obj in objects:
            name = f"{obj.get('kind', '?')}/{obj.get('metadata', {}).get('name', '?')}"
            errors = check(obj, args.kubernetes_version)
            for e in errors:
                print(f"ERROR {file} {name}: {e}")
            if errors:
                failed += 1
            else:
                print(f"ok    {file} {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
