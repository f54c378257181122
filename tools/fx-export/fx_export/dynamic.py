"""Dynamic (symbolic) dimensions: the user's --dynamic specs, torch.export's
Dim objects for them, and symbolic sizes written as expressions in the
small grammar of formats/fx-json.md ("Symbolic shapes"):

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "//" | "%") unary)*
    unary  := "-" unary | atom
    atom   := INTEGER | SYMBOL | "(" expr ")"

`//` and `%` are Python's floor division and modulo (the divisor is a
positive constant in what torch.export records).
"""

import dataclasses
import re

from .common import ExportError

SYMBOL_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INT64_MAX = 2 ** 63 - 1


@dataclasses.dataclass(frozen=True)
class DynamicDim:
    """Dimension `dim` of input `input` is the symbol `name`, in [min, max]
    (None: torch.export's default bound)."""
    input: int
    dim: int
    name: str
    min: int = None
    max: int = None


_SPEC_RE = re.compile(r"(?:(\d+):)?(\d+):([A-Za-z_][A-Za-z0-9_]*)(?:=(\d*)\.\.(\d*))?")


def parse_dynamic_spec(spec):
    """'IN:DIM:NAME[=MIN..MAX]' or 'DIM:NAME[=MIN..MAX]' (input 0) -> DynamicDim;
    ValueError with the reason otherwise."""
    m = _SPEC_RE.fullmatch(spec.strip())
    if not m:
        raise ValueError("expected IN:DIM:NAME or DIM:NAME, optionally with a range "
                         "=MIN..MAX (either bound may be left out), e.g. 0:0:batch=1..64")
    inp, dim, name, lo, hi = m.groups()
    lo = int(lo) if lo else None
    hi = int(hi) if hi else None
    if hi is not None and hi > INT64_MAX - 1 or lo is not None and lo > INT64_MAX - 1:
        raise ValueError("a bound does not fit in 64 bits")
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"empty range: {lo} > {hi}")
    if m.group(4) is not None and lo is None and hi is None:
        raise ValueError("a range needs at least one bound (=MIN.., =..MAX or =MIN..MAX)")
    return DynamicDim(int(inp) if inp else 0, int(dim), name, lo, hi)


def check_dynamic(dyns, args):
    """Each spec names an existing dimension once; a shared name has one range
    (given at any of its dimensions, or at several alike)."""
    seen, ranges = {}, {}
    for d in dyns:
        if d.input >= len(args):
            raise ExportError(f"--dynamic {d.input}:{d.dim}:{d.name}: the module has "
                              f"{len(args)} input{'s' if len(args) != 1 else ''}")
        rank = args[d.input].dim()
        if d.dim >= rank:
            raise ExportError(f"--dynamic {d.input}:{d.dim}:{d.name}: input {d.input} has "
                              f"{rank} dimensions")
        if (d.input, d.dim) in seen:
            raise ExportError(f"--dynamic: dimension {d.dim} of input {d.input} is given twice "
                              f"({seen[d.input, d.dim]} and {d.name})")
        seen[d.input, d.dim] = d.name
        size = args[d.input].shape[d.dim]
        if (d.min is not None and size < d.min) or (d.max is not None and size > d.max):
            raise ExportError(f"--dynamic {d.input}:{d.dim}:{d.name}: the example input's size "
                              f"{size} is outside the range [{d.min}, {d.max}]")
        rng = (d.min, d.max)
        if rng != (None, None) and ranges.setdefault(d.name, rng) != rng:
            raise ExportError(f"--dynamic: symbol {d.name} is given two ranges")


def torch_dynamic_shapes(dyns, args):
    """torch.export's dynamic_shapes argument: per input, {dim: Dim}."""
    import torch.export

    dims = {}
    for d in sorted(dyns, key=lambda d: (d.min, d.max) == (None, None)):   # ranged first
        if d.name not in dims:
            kw = {k: v for k, v in (("min", d.min), ("max", d.max)) if v is not None}
            dims[d.name] = torch.export.Dim(d.name, **kw)
    shapes = [None] * len(args)
    for d in dyns:
        shapes[d.input] = shapes[d.input] or {}
        shapes[d.input][d.dim] = dims[d.name]
    return tuple(shapes)


# ------------------------------------------------------------ expressions

class SymbolNames:
    """torch's symbols (s77) -> the names written (the user's, else torch's)."""

    def __init__(self):
        self.names = {}

    def name(self, symbol):
        key = str(symbol)
        if key not in self.names:
            used = set(self.names.values())
            name = key
            while name in used:
                name += "_"
            self.names[key] = name
        return self.names[key]

    def expr(self, e):
        """A sympy expression over torch's symbols in our grammar."""
        return _print(e, self)


def _print(e, names, parent=0):
    """parent: the binding strength around e (0 sum, 1 product, 2 unary)."""
    import sympy
    from torch.utils._sympy import functions as tf

    if isinstance(e, sympy.Integer):
        v = int(e)
        if not -(2 ** 63) <= v <= INT64_MAX:
            raise ExportError(f"symbolic size {e} does not fit in 64 bits")
        return f"({v})" if v < 0 and parent > 0 else str(v)
    if isinstance(e, sympy.Symbol):
        return names.name(e)
    if isinstance(e, sympy.Add):
        # ordered by the names written, so that the text does not depend
        # on torch's internal symbol numbers
        terms = sorted(e.args, key=lambda a: (bool(a.is_number), _print(a, names)))
        text = _print(terms[0], names)
        for t in terms[1:]:
            if t.is_number and t < 0:
                text += f" - {-int(t)}"
            else:
                text += " + " + _print(t, names)
        return f"({text})" if parent > 0 else text
    if isinstance(e, sympy.Mul):
        factors = sorted(e.args, key=lambda a: (not a.is_number, _print(a, names, 1)))
        if factors[0] == -1 and len(factors) > 1:
            inner = sympy.Mul(*factors[1:])
            return f"-{_print(inner, names, 2)}" if parent < 2 else f"(-{_print(inner, names, 2)})"
        text = " * ".join(_print(f, names, 1) for f in factors)
        return f"({text})" if parent > 1 else text
    if isinstance(e, sympy.Pow) and isinstance(e.exp, sympy.Integer) and int(e.exp) > 0:
        text = " * ".join([_print(e.base, names, 1)] * int(e.exp))
        return f"({text})" if parent > 1 else text
    ops = {tf.FloorDiv: "//", tf.PythonMod: "%", tf.Mod: "%", sympy.Mod: "%"}
    for cls, op in ops.items():
        if isinstance(e, cls) and len(e.args) == 2:
            text = f"{_print(e.args[0], names, 1)} {op} {_print(e.args[1], names, 2)}"
            return f"({text})" if parent > 0 else text
    raise ExportError(f"the symbolic size {e} ({type(e).__name__}) has no form in "
                      "fx-json's shape expressions (+, -, *, //, %)")


def size_of(value, names):
    """An int, or the expression string of a SymInt."""
    import sympy

    node = getattr(value, "node", None)
    expr = getattr(node, "expr", None)
    if expr is None:
        return int(value)
    expr = sympy.sympify(expr)
    if expr.is_Integer:
        return int(expr)
    return names.expr(expr)


def symbol_table(range_constraints, names):
    """[{"name", "min", "max"}] of every symbol torch.export constrained;
    max None when unbounded."""
    import sympy

    table = []
    for sym, rng in range_constraints.items():
        if not isinstance(sym, sympy.Symbol):
            continue
        lo, hi = rng.lower, rng.upper
        lo = int(lo) if getattr(lo, "is_Integer", False) else 0
        hi = int(hi) if getattr(hi, "is_Integer", False) and int(hi) < INT64_MAX else None
        table.append({"name": names.name(sym), "min": lo, "max": hi})
    return table
