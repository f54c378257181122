# helpers.bash - shared by tests/cuda/*.bats: codegen --target=cuda, then
# CUDA's ptxas on the PTX for sm_80 and sm_90 where the toolkit is installed.

load ../ci-split

setup() {
  T="$BATS_TEST_TMPDIR"
  PY="${PYTHON:-/usr/bin/python3}"
}

# ptxas from PATH or the toolkit's default place; empty if neither.
ptxas_path() {
  command -v ptxas 2>/dev/null ||
    { [ -x /usr/local/cuda/bin/ptxas ] && echo /usr/local/cuda/bin/ptxas; } || true
}

# cuda_compile IN.mlir: the fxvm module in $T/m.fxvm, the PTX in $T/m.ptx,
# both packed and assembled.  Skips where the kernels need libdevice and
# the toolkit is missing, and the ptxas step where ptxas is.
cuda_compile() {
  run bin/codegen --target=cuda "$1" -o "$T/m.fxvm"
  if [ "$status" -ne 0 ] && [[ "$output" == *"need CUDA's libdevice"* ]]; then
    skip "the kernels need CUDA's libdevice (install the CUDA toolkit or set CUDA_HOME)"
  fi
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -q 'fxvm.target = "cuda"' "$T/m.fxvm"
  grep -q 'format = "ptx"' "$T/m.fxvm"
  bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  # the PTX is the executable's blob ("0x", 4 bytes of alignment, the
  # text, its NUL); without xxd, compile once more
  if command -v xxd >/dev/null; then
    sed -n 's/^ *kernels: "0x\([0-9A-Fa-f]*\)",\{0,1\}$/\1/p' "$T/m.fxvm" | cut -c9- |
      xxd -r -p | tr -d '\000' > "$T/m.ptx"
  else
    bin/codegen --target=cuda --emit=ptx "$1" -o "$T/m.ptx"
  fi
  grep -q '^.target sm_80' "$T/m.ptx"
  ! grep -q 'fxvm.kernel' "$T/m.fxvm" || grep -q '^.visible .entry dispatch_' "$T/m.ptx"
  local ptxas
  ptxas=$(ptxas_path)
  [ -n "$ptxas" ] || skip "CUDA's ptxas is not installed (NVIDIA's cuda-toolkit; on PATH or in /usr/local/cuda/bin)"
  for arch in sm_80 sm_90; do
    run "$ptxas" -arch=$arch "$T/m.ptx" -o "$T/m.$arch.cubin"
    [ "$status" -eq 0 ] || { echo "ptxas -arch=$arch: $output"; false; }
  done
}
