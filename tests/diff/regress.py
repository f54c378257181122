#!/usr/bin/env python3
"""regress.py - the differential tester's regression cases: programs that
once gave a wrong result, a crash or invalid IR, each run through the
whole pipe and compared with PyTorch eager (pipe.py).

    regress.py list                 every case, one name a line
    regress.py run NAME...          run the named cases (all when none);
                                    exit 1 if any fails
    regress.py run --results DIR FILE
                                    every case FILE names (a bats file),
                                    each one's line also to DIR/NAME:
                                    what tests/diff's setup_file does,
                                    one PyTorch start for a file's cases

Cases live in cases_*.py beside this file: a function decorated with
@case returns (module_or_callable, inputs).  A case that expects a clear
refusal (PyTorch gives a result fxpipe cannot compute) says so with
@case(refuse="text the error must contain").
"""
import glob
import importlib
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
from pipe import Failure, run_module  # noqa: E402
from cases import CASES  # noqa: E402


def load():
    for f in sorted(glob.glob(os.path.join(HERE, "cases_*.py"))):
        importlib.import_module(os.path.basename(f)[:-3])
    return CASES


def run_one(cases, name):
    """(ok, the line that says so) for case NAME."""
    if name not in cases:
        return False, "%s: no such case" % name
    fn, refuse = cases[name]
    torch.manual_seed(0)
    module, inputs = fn()
    with tempfile.TemporaryDirectory() as d:
        try:
            run_module(module, inputs, d)
        except Failure as e:
            if refuse and e.kind == "refused" and refuse in str(e):
                return True, "%s: ok (refused: %s)" % (name, e)
            return False, "%s: FAIL: %s: %s" % (name, e.kind, e)
    if refuse:
        return False, ("%s: FAIL: expected a refusal containing %r, got a result"
                       % (name, refuse))
    return True, "%s: ok" % name


def run(names, results=None):
    cases = load()
    bad = 0
    for name in names or sorted(cases):
        ok, line = run_one(cases, name)
        print(line, flush=True)
        bad += not ok
        if results:
            # written whole, then renamed: a case cut short leaves no file
            # and its test runs the case again on its own
            tmp = os.path.join(results, ".%s.tmp" % name)
            with open(tmp, "w") as f:
                f.write("%s\n%s\n" % ("ok" if ok else "FAIL", line))
            os.replace(tmp, os.path.join(results, name))
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "list":
        print("\n".join(sorted(load())))
    elif len(sys.argv) == 5 and sys.argv[1:3] == ["run", "--results"]:
        cases = load()
        with open(sys.argv[4]) as f:
            words = re.findall(r"[A-Za-z0-9_]+", f.read())
        names = list(dict.fromkeys(w for w in words if w in cases))
        sys.exit(run(names, sys.argv[3]) if names else 0)
    elif len(sys.argv) >= 2 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2:]))
    else:
        sys.exit("usage: regress.py list | regress.py run [--results DIR] [NAME...]")


if __name__ == "__main__":
    main()
