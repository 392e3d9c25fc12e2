#!/usr/bin/python3
"""Validates every line of an eve.json against Suricata's eve JSON schema.

usage: eve-validate.py SCHEMA EVE.json
Prints "N records valid", or the first invalid record (line number, reason)
and exits 1. Exits 2 when python3-jsonschema is missing or the input cannot be
read."""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: eve-validate.py SCHEMA EVE.json", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("eve-validate: python3-jsonschema is not installed "
              "(apt-get install python3-jsonschema)", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        validator = cls(schema)
        n = 0
        with open(argv[2]) as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    print("line %d: not JSON: %s" % (lineno, e))
                    print(line.rstrip())
                    return 1
                err = next(iter(validator.iter_errors(rec)), None)
                if err is not None:
                    where = "/".join(str(x) for x in err.absolute_path) or "(record)"
                    print("line %d: %s: %s" % (lineno, where, err.message))
                    print(line.rstrip())
                    return 1
                n += 1
    except OSError as e:
        print("eve-validate: %s" % e, file=sys.stderr)
        return 2
    print("%d records valid" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
