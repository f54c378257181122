#!/usr/bin/env bats
# math.erf and math.tanh on f32 are codegen's own vectorized polynomials
# (llvm/ops.c fast_erff, fast_tanhf), not calls to erff and tanhf:
# checked here through codegen and vmrun against the function in double
# rounded to f32, on over 2 million floats spread over every exponent
# (every 1019th bit pattern up to a bound past which the result is +-1,
# both signs: each branch, its boundaries, subnormals), and the special
# values: at most 1 ulp off, NaN for NaN, the sign of zero kept.  f16 and
# bf16 compute them in f32 and round.

setup() {
  T=$BATS_TEST_TMPDIR
  PY=${PYTHON:-/usr/bin/python3}
  "$PY" -c "import numpy" 2>/dev/null || skip "$PY cannot import numpy"
}

# ulp_check OP BOUND SPECIAL...: OP (erf, tanh) on every 1019th float up
# to BOUND, both signs, and on the SPECIAL values and their negations
ulp_check() {
  op=$1; shift
  n=$("$PY" - "$T" "$@" <<'PY'
import sys, numpy as np
bits = np.arange(0, np.float32(sys.argv[2]).view(np.uint32) + 1, 1019, dtype=np.uint32)
x = bits.view(np.float32)
special = np.array([0.0, np.inf, np.nan, 1e-45] + [float(s) for s in sys.argv[3:]], np.float32)
special = np.concatenate([special, np.nextafter(special, np.float32(0))])
x = np.concatenate([x, -x, special, -special]).astype(np.float32)
np.save(sys.argv[1] + "/x.npy", x)
print(len(x))
PY
)
  cat > "$T/m.mlir" <<MLIR
func.func @main(%x: tensor<${n}xf32>) -> tensor<${n}xf32> {
  %e = tensor.empty() : tensor<${n}xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<${n}xf32>) outs(%e : tensor<${n}xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.$op %a : f32
    linalg.yield %y : f32
  } -> tensor<${n}xf32>
  return %r : tensor<${n}xf32>
}
MLIR
  bin/codegen "$T/m.mlir" > "$T/m.fxvm"
  if bin/codegen --emit=llvm "$T/m.mlir" | grep -q "@${op}f"; then
    echo "math.$op calls ${op}f"; return 1
  fi
  bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  bin/vmrun "$T/m.vmfb" --input=@"$T/x.npy" --output=@"$T/y.npy"
  run "$PY" - "$T" "$op" <<'PY'
import math, sys, numpy as np
x = np.load(sys.argv[1] + "/x.npy"); y = np.load(sys.argv[1] + "/y.npy")
f = getattr(math, sys.argv[2])
ref = np.array([f(v) for v in x.astype(np.float64).tolist()]).astype(np.float32)
nan = np.isnan(x)
def ordered(f):
    i = f.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7fffffff), i)
d = np.abs(ordered(ref[~nan]) - ordered(y[~nan]))
k = int(np.argmax(d))
print(f"{len(x)} values: {int((d == 1).sum())} 1 ulp off, worst {int(d.max())} ulp at x = "
      f"{float(x[~nan][k])!r}; NaN gives NaN: {bool(np.isnan(y[nan]).all())}; "
      f"signs of zeros: {np.signbit(y[x == 0]).tolist()}")
sys.exit(0 if d.max() <= 1 and np.isnan(y[nan]).all()
         and np.array_equal(np.signbit(y[x == 0]), np.signbit(x[x == 0])) else 1)
PY
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "erf of f32 is within 1 ulp of erf in double, over a dense sample of every range, and exact at the special values" {
  # branches meet at 0.875, 2 and 3.92
  ulp_check erf 4.0 0.875 2.0 3.92 10.0
}

@test "tanh of f32 is within 1 ulp of tanh in double, over a dense sample of every range, and exact at the special values" {
  # branches meet at 0.9; exp(2|x|) overflows past 44.36; 1 from 9.01
  ulp_check tanh 10.0 0.9 9.01 44.3 44.4 100.0 1e30 3e38
}
