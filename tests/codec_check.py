#!/usr/bin/env python3
"""Oracle for the struct-codec test (tests/test_codec.c): Python's json module.

    codec_check.py SCHEMA PAYLOAD OUTPUT [SCHEMA PAYLOAD OUTPUT ...]

For each triple, the payload is cut down to what the schema describes (unknown
fields dropped, defaults of absent fields filled in) and compared with the
generated writer's OUTPUT of the generated reader's result. Any difference is
printed with its path; the exit status is 1 if there was one."""
import json
import sys


def resolve(schema, root):
    while "$ref" in schema:
        ref = schema["$ref"]
        schema = root if ref == "#" else root["$defs"][ref.rsplit("/", 1)[1]]
    return schema


def variant_matches(value, schema, root):
    schema = resolve(schema, root)
    if not isinstance(value, dict):
        return False
    props = schema.get("properties", {})
    for name, p in props.items():
        p = resolve(p, root)
        if "const" in p and value.get(name) != p["const"]:
            return False
    return all(r in value for r in schema.get("required", []))


def prune(value, schema, root):
    schema = resolve(schema, root)
    if value is None:
        return None
    if "oneOf" in schema:
        for v in schema["oneOf"]:
            if variant_matches(value, v, root):
                return prune(value, v, root)
        raise ValueError("no variant matches %r" % (value,))
    if "properties" in schema:
        out = {}
        for name, p in schema["properties"].items():
            if name in value and (value[name] is not None or name in schema.get("required", [])):
                out[name] = prune(value[name], p, root)  # an optional null is written as absent
            elif "default" in resolve(p, root):
                out[name] = resolve(p, root)["default"]
        return out
    if isinstance(schema.get("additionalProperties"), dict):
        return {k: prune(v, schema["additionalProperties"], root) for k, v in value.items()}
    if "items" in schema:
        return [prune(v, schema["items"], root) for v in value]
    return value


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s/%s: only in %s" % (path, k, "payload" if k in a else "output"))
            else:
                diff(a[k], b[k], "%s/%s" % (path, k), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s/%d" % (path, i), out)
    elif a != b or (type(a) is bool) != (type(b) is bool):
        out.append("%s: payload %r, output %r" % (path or "/", a, b))


def main():
    args = sys.argv[1:]
    bad = 0
    for i in range(0, len(args), 3):
        schema_path, payload_path, output_path = args[i:i + 3]
        with open(schema_path, encoding="utf-8") as f:
            schema = json.load(f)
        with open(payload_path, encoding="utf-8") as f:
            payload = json.load(f)
        with open(output_path, encoding="utf-8") as f:
            output = json.load(f)
        out = []
        diff(prune(payload, schema, schema), output, "", out)
        for line in out[:20]:
            print("%s: %s" % (payload_path, line))
        bad += bool(out)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
