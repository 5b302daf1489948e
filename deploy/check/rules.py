#!/usr/bin/env python3
"""Writes the rule groups of every PrometheusRule in rendered manifests as
Prometheus rule files, for `promtool check rules`.

    rules.py OUT_DIR FILE...

One `<namespace>_<name>.rules.yaml` per PrometheusRule (its `spec`, which
is a rule file's `groups:`); prints each path. Exit status 1 when there is
none.
"""

import pathlib
import sys

import yaml


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for file in sys.argv[2:]:
        with open(file) as f:
            for obj in yaml.safe_load_all(f):
                if not obj or obj.get("kind") != "PrometheusRule":
                    continue
                meta = obj.get("metadata", {})
                name = f"{meta.get('namespace', 'default')}_{meta.get('name', 'rules')}.rules.yaml"
                path = out / name
                path.write_text(yaml.safe_dump(obj.get("spec", {}), sort_keys=False))
                written.append(path)
    for p in written:
        print(p)
    if not written:
        print("no PrometheusRule in the rendered manifests", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
