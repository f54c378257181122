"""cases.py - the registry of regression cases (see regress.py)."""
import torch

CASES = {}


class Fn(torch.nn.Module):
    """A module whose forward is a plain function of its inputs."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def case(fn=None, refuse=None, graph="aten"):
    """graph="torch": captured by symbolic tracing (fx-export --graph
    torch), for ops that only torch-level graphs have (aten.conv2d...)."""
    def register(f):
        if f.__name__ in CASES:
            raise ValueError("case %s defined twice" % f.__name__)
        def make():
            m, ins = f()
            m = m if isinstance(m, torch.nn.Module) else Fn(m)
            m.fxpipe_graph = graph
            return m, list(ins)
        CASES[f.__name__] = (make, refuse)
        return f
    return register(fn) if fn else register
