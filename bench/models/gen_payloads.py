#!/usr/bin/env python3
"""Deterministic payloads for the struct-codec models (bench/models/*.json).

    gen_payloads.py OUTDIR      writes OUTDIR/<model>.json for every model

The same seed always gives the same bytes, so benchmarks and tests agree on
what they read. The twitter model reads the corpus file instead."""
import json
import os
import random
import sys

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon phi chi psi omega").split()


def word(r):
    return r.choice(WORDS)


def flat(r):
    return {"id": 9007199254740993, "name": "Ada Lovelace", "active": True, "score": 97.25,
            "count": -2147483648, "balance": -9223372036854775807, "email": "ada@example.org",
            "ratio": 0.1, "level": "high", "nickname": None, "retries": 5, "verified": True}


def address(r):
    return {"street": "%d %s Street" % (r.randint(1, 999), word(r).title()),
            "city": word(r).title() + "ville", "zip": "%05d" % r.randint(0, 99999),
            "country": r.choice(["DE", "FR", "US", "JP", "BR"])}


def company(r):
    depts = []
    for d in range(9):
        emps = []
        for e in range(11):
            emps.append({"id": d * 1000 + e, "name": "%s %s" % (word(r).title(), word(r).title()),
                         "title": r.choice(["engineer", "manager", "analyst", "designer"]),
                         "salary": round(r.uniform(30000, 150000), 2), "active": r.random() < 0.9,
                         "skills": [word(r) for _ in range(r.randint(2, 5))], "address": address(r)})
        depts.append({"name": word(r).title(), "budget": round(r.uniform(1e5, 1e7), 2), "employees": emps})
    return {"name": "Initech \u00e9t\u00e9 \"quoted\"", "founded": 1999, "headquarters": address(r),
            "departments": depts}


def document(r):
    return {"id": 18446744073709551615, "status": "sent",
            "meta": {"author": "Grace Hopper", "created": 1700000000, "tags": ["q4", "urgent", "eu"]},
            "items": [{"sku": "SKU-%04d" % r.randint(0, 9999), "qty": r.randint(1, 50),
                       "price": round(r.uniform(1, 500), 2)} for _ in range(8)],
            "note": None}


def tree(r, depth):
    """A random expression tree of the given depth (as nested tuples)."""
    if depth == 0:
        return ("num", round(r.uniform(-100, 100), 3))
    if r.random() < 0.2:
        return ("neg", tree(r, depth - 1))
    return ("bin", r.choice("+-*/"), tree(r, depth - 1), tree(r, depth - 1 if r.random() < 0.7 else 0))


def expr_field(t, r):
    """Discriminator field shape; "type" is often not the first key."""
    if t[0] == "num":
        fields = [("value", t[1])]
    elif t[0] == "neg":
        fields = [("arg", expr_field(t[1], r))]
    else:
        fields = [("op", t[1]), ("left", expr_field(t[2], r)), ("right", expr_field(t[3], r))]
    fields.insert(r.randint(0, len(fields)), ("type", t[0]))
    return dict(fields)


def expr_nested(t):
    if t[0] == "num":
        return {"num": t[1]}
    if t[0] == "neg":
        return {"neg": expr_nested(t[1])}
    return {"bin": {"op": t[1], "left": expr_nested(t[2]), "right": expr_nested(t[3])}}


def abc(r):
    out = {}
    for i, c in reversed(list(enumerate("abcdefghijklmnopqrstuvwxyz"))):
        out[c] = i * 1000003 if i % 3 == 0 else ("value of " + c) if i % 3 == 1 else i + 0.5
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    r = random.Random(7)
    t = tree(random.Random(8), 8)
    models = {"flat": flat(r), "company": company(r), "document": document(r),
              "expr_field": expr_field(t, random.Random(9)), "expr_nested": expr_nested(t), "abc": abc(r)}
    for name, value in models.items():
        with open(os.path.join(outdir, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(value, f, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main()
