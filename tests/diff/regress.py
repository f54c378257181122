#!/usr/bin/env python3
"""regress.py - the differential tester's regression cases: programs that
once gave a wrong result, a crash or invalid IR, each run through the
whole pipe and compared with PyTorch eager (pipe.py).

    regress.py list                 every case, one name a line
    regress.py run NAME...          run the named cases (all when none);
                                    exit 1 if any fails

Cases live in cases_*.py beside this file: a function decorated with
@case returns (module_or_callable, inputs).  A case that expects a clear
refusal (PyTorch gives a result fxpipe cannot compute) says so with
@case(refuse="text the error must contain").
"""
import glob
import importlib
import os
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


def run(names):
    cases = load()
    bad = 0
    for name in names or sorted(cases):
        if name not in cases:
            print("%s: no such case" % name)
            bad += 1
            continue
        fn, refuse = cases[name]
        torch.manual_seed(0)
        module, inputs = fn()
        with tempfile.TemporaryDirectory() as d:
            try:
                run_module(module, inputs, d)
                if refuse:
                    print("%s: FAIL: expected a refusal containing %r, got a result"
                          % (name, refuse))
                    bad += 1
                else:
                    print("%s: ok" % name)
            except Failure as e:
                if refuse and e.kind == "refused" and refuse in str(e):
                    print("%s: ok (refused: %s)" % (name, e))
                else:
                    print("%s: FAIL: %s: %s" % (name, e.kind, e))
                    bad += 1
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "list":
        print("\n".join(sorted(load())))
    elif len(sys.argv) >= 2 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2:]))
    else:
        sys.exit("usage: regress.py list | regress.py run [NAME...]")


if __name__ == "__main__":
    main()
