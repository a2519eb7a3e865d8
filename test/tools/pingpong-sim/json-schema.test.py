import json, re, sys
d = json.load(open(sys.argv[1]))
print("schema_version", d.get("schema_version"))
keys, bad = 0, []
def walk(x):
    global keys
    if isinstance(x, dict):
        for k, v in x.items():
            keys += 1
            if not re.fullmatch(r"[a-z0-9_]+", k):
                bad.append(k)
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(d)
print(f"keys snake_case: {keys} checked, {len(bad)} bad {bad[:5]}")
cl = d["clusters"]
assert all(isinstance(c, dict) for c in cl), "clusters must be objects"
print(f"clusters: {len(cl)} objects, mfma total {sum(c['mfma'] for c in cl)}")
print("stall keys: " + " ".join(sorted(d["stalls_steady_state"])))
