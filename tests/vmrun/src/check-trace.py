#!/usr/bin/env python3
"""check-trace.py TRACE.json RUNS THREADS [NAME_REGEX]: checks a vmrun
--trace file against the Chrome trace-event format's rules that Perfetto
relies on, and against what vmrun promises: RUNS runs on the host track
(tid 0), each with the same dispatches in the same order, a thread_name
track per pool thread (tids 1..THREADS) whose events lie inside their
dispatch's host event, and every dispatch named by NAME_REGEX when given.
Prints the dispatch names of one run; exits 1 with a message otherwise."""
import json
import re
import sys


def fail(msg):
    sys.exit(f"check-trace: {msg}")


path, runs, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
pat = re.compile(sys.argv[4]) if len(sys.argv) > 4 else None
d = json.load(open(path))
ev = d["traceEvents"]
for e in ev:
    if e["ph"] not in ("X", "M") or not isinstance(e.get("pid"), int):
        fail(f"bad event {e}")
    if e["ph"] == "X":
        if not (isinstance(e["ts"], (int, float)) and e["dur"] >= 0 and isinstance(e["tid"], int)):
            fail(f"bad complete event {e}")
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
if sorted(names) != list(range(threads + 1)):
    fail(f"thread tracks {sorted(names)}, expected 0..{threads}")
host = [e for e in ev if e["ph"] == "X" and e["tid"] == 0]
if len([e for e in host if e["cat"] == "run"]) != runs:
    fail("not one run event per run")
per_run = [[e for e in host if e["cat"] == "dispatch" and e["args"]["run"] == r] for r in range(runs)]
seq = [e["name"] for e in per_run[0]]
if not seq:
    fail("no dispatches")
for r, ds in enumerate(per_run):
    if [e["name"] for e in ds] != seq:
        fail(f"run {r} has dispatches {[e['name'] for e in ds]}, run 0 {seq}")
    for e in ds:
        for k in ("bytes", "flops", "source", "grid"):
            if k not in e["args"]:
                fail(f"dispatch without {k}: {e}")
        if pat and not pat.search(e["name"]):
            fail(f"name {e['name']!r} does not match {pat.pattern!r}")
byinst = {(e["args"]["run"], e["args"]["instruction"]): e for e in host if e["cat"] != "run"}
for e in ev:
    if e["ph"] == "X" and e["tid"] > 0:
        h = byinst.get((e["args"]["run"], e["args"]["instruction"]))
        if not h or h["name"] != e["name"] or e["ts"] < h["ts"] - 0.01 or \
                e["ts"] + e["dur"] > h["ts"] + h["dur"] + 0.01:
            fail(f"thread event outside its dispatch: {e}")
print("\n".join(seq))
