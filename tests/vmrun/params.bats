#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# External parameters: vmpack --params=FILE keeps the constants in a
# safetensors file, vmrun --parameters=FILE maps it; results bit-identical
# to the self-contained module, and every bad parameters file refused with
# the tensor named and nothing written.
load helpers

MLP=tests/fx-import/inputs/mlp-torch

# run_ext MODULE PARAMS: vmrun with setup's input
run_ext() {
  run bin/vmrun "$1" --parameters="$2" --input=2x16xf32=0.25 --output=@"$T/got.npy"
}

# rewrite FILE PYTHON: edits the safetensors FILE's header h (a dict) and
# data d (a bytearray) with PYTHON, and writes it back
rewrite() {
  python3 - "$1" "$2" <<'EOF'
import json, struct, sys
path, code = sys.argv[1], sys.argv[2]
b = open(path, "rb").read()
n = struct.unpack("<Q", b[:8])[0]
h = json.loads(b[8:8 + n])
d = bytearray(b[8 + n:])
exec(code)
t = json.dumps(h).encode()
t += b" " * (-(8 + len(t)) % 64)
open(path, "wb").write(struct.pack("<Q", len(t)) + t + bytes(d))
EOF
}

setup() {
  T="$BATS_TEST_TMPDIR"
  # the mlp model through the README's pipe, packed self-contained and not
  bin/fx-import "$MLP.json" | bin/torch-opt | bin/torch-lower | bin/codegen --target=cpu > "$T/m.fxvm"
  bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  bin/vmrun "$T/m.vmfb" --input=2x16xf32=0.25 --output=@"$T/want.npy"
  bin/vmpack --params="$T/p.safetensors" "$T/m.fxvm" -o "$T/ext.vmfb"
}

@test "vmpack --params: the module keeps no constants; vmrun --parameters gives the same bytes" {
  run bin/vmpack --dump "$T/ext.vmfb"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == *"version 1, "*" bytes, external parameters" ]]
  [[ "$output" == *"  @cst0: tensor<32xf32>, 128 bytes in parameter 'fc1.bias' (crc32c "* ]]
  [[ "$output" == *"  @cst1: tensor<16x32xf32>, 2048 bytes in parameter 'cst1' (crc32c "* ]]
  [[ "$output" == *"constants: 0 bytes"* ]]
  [ "$(stat -c %s "$T/ext.vmfb")" -lt $(( $(stat -c %s "$T/m.vmfb") - 7000 )) ]
  run_ext "$T/ext.vmfb" "$T/p.safetensors"
  [ "$status" -eq 0 ]
  cmp "$T/want.npy" "$T/got.npy"
  # a standard safetensors file: every tensor at a multiple of 64, no holes
  python3 - "$T/p.safetensors" <<'EOF'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", b[:8])[0]
h = json.loads(b[8:8 + n])
assert h.pop("__metadata__")["producer"] == "vmpack"
assert (8 + n) % 64 == 0
spans = sorted(v["data_offsets"] for v in h.values())
assert spans[0][0] == 0 and spans[-1][1] == len(b) - 8 - n
assert all(a[1] == b_[0] for a, b_ in zip(spans, spans[1:]))
assert all(v["data_offsets"][0] % 64 == 0 for k, v in h.items() if not k.startswith("__pad."))
assert h["fc1.bias"] == {"dtype": "F32", "shape": [32], "data_offsets": [0, 128]}
EOF
  # packing again with the same file rewrites it the same
  cp "$T/p.safetensors" "$T/p0"
  bin/vmpack --params="$T/p.safetensors" "$T/m.fxvm" -o "$T/ext2.vmfb"
  cmp "$T/p0" "$T/p.safetensors"
  cmp "$T/ext.vmfb" "$T/ext2.vmfb"
}

@test "vmpack --params: fx-export's weights file is a source, left as it is" {
  cp "$MLP.safetensors" "$T/fx.safetensors"
  bin/vmpack --params="$T/fx.safetensors" "$T/m.fxvm" -o "$T/fx.vmfb"
  cmp "$MLP.safetensors" "$T/fx.safetensors"
  run bin/vmpack --dump "$T/fx.vmfb"
  [[ "$output" == *"@cst0: tensor<32xf32>, 128 bytes in parameter 'fc1.bias'"* ]]
  [[ "$output" == *"@cst4: tensor<8xf32>, 32 bytes in parameter 'fc3.bias'"* ]]
  # the transposed weights are no tensor of the file: they stay inside
  [[ "$output" == *"@cst1: tensor<16x32xf32>, 2048 bytes at constants+"* ]]
  # fx-export aligns to 8 bytes: the runtime copies these, same results
  run_ext "$T/fx.vmfb" "$T/fx.safetensors"
  [ "$status" -eq 0 ]
  cmp "$T/want.npy" "$T/got.npy"
  # the module packed with vmpack's own file needs tensors fx-export's lacks
  run_ext "$T/ext.vmfb" "$T/fx.safetensors"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: parameters $T/fx.safetensors: tensor 'cst1': not in the file (@cst1 needs it)" ]
}

@test "vmpack --params refuses a file it did not write and fx-export did not" {
  printf 'precious' > "$T/x.safetensors"
  run bin/vmpack --params="$T/x.safetensors" "$T/m.fxvm" -o "$T/x.vmfb"
  [ "$status" -eq 1 ]
  [[ "$output" == "vmpack: error: --params: '$T/x.safetensors' exists and is not a safetensors file vmpack can use ("*"); remove it or name another" ]]
  [ "$(cat "$T/x.safetensors")" = precious ]
  [ ! -e "$T/x.vmfb" ]
  cp "$T/p.safetensors" "$T/y.safetensors"
  rewrite "$T/y.safetensors" 'h["__metadata__"]["producer"] = "someone"'
  run bin/vmpack --params="$T/y.safetensors" "$T/m.fxvm" -o "$T/x.vmfb"
  [ "$status" -eq 1 ]
  [[ "$output" == *"exists and was written by neither vmpack nor fx-export; remove it or name another" ]]
  [ ! -e "$T/x.vmfb" ]
}

@test "vmrun: a module with external parameters and no --parameters names the first one" {
  run bin/vmrun "$T/ext.vmfb" --input=2x16xf32=0.25 --output=@"$T/got.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/ext.vmfb: parameter 'fc1.bias' (@cst0) is outside the module: run with its parameters file (--parameters=FILE)" ]
  [ ! -e "$T/got.npy" ]
  run_ext "$T/ext.vmfb" "$T/none.safetensors"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: parameters $T/none.safetensors: cannot open: No such file or directory" ]
  [ ! -e "$T/got.npy" ]
  # a self-contained module ignores --parameters
  run_ext "$T/m.vmfb" "$T/p.safetensors"
  [ "$status" -eq 0 ]
  cmp "$T/want.npy" "$T/got.npy"
}

# bad NAME PYTHON MESSAGE: p.safetensors edited by PYTHON is refused with
# MESSAGE after "parameters FILE: ", and no result is written
bad() {
  cp "$T/p.safetensors" "$T/$1"
  [ -z "$2" ] || rewrite "$T/$1" "$2"
  run_ext "$T/ext.vmfb" "$T/$1"
  echo "$output"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: parameters $T/$1: $3" ]
  [ ! -e "$T/got.npy" ]
}

@test "vmrun --parameters: truncated, tampered and malformed files are refused by name" {
  # a data byte of fc1.bias changed
  cp "$T/p.safetensors" "$T/tampered"
  n=$(( $(od -An -tu8 -N8 "$T/p.safetensors") + 8 ))
  flip "$T/tampered" $((n + 5))
  run_ext "$T/ext.vmfb" "$T/tampered"
  [ "$status" -eq 1 ]
  [[ "$output" == "vmrun: error: parameters $T/tampered: tensor 'fc1.bias': checksum "*", the module expects "*" (other weights than the module was packed with)" ]]
  [ ! -e "$T/got.npy" ]
  head -c $((n + 1000)) "$T/p.safetensors" > "$T/short"
  run_ext "$T/ext.vmfb" "$T/short"
  [ "$status" -eq 1 ]
  [[ "$output" == "vmrun: error: parameters $T/short: tensor '"*"': data_offsets ["*"] outside the 1000 bytes of data (truncated?)" ]]
  head -c 100 "$T/p.safetensors" > "$T/short"
  run_ext "$T/ext.vmfb" "$T/short"
  [[ "$output" == "vmrun: error: parameters $T/short: truncated: the header says "*" bytes, the file has 92 after the length" ]]
  : > "$T/empty"
  run_ext "$T/ext.vmfb" "$T/empty"
  [ "$output" = "vmrun: error: parameters $T/empty: truncated: 0 bytes, shorter than the 8-byte header length" ]
  bad missing 'h["other"] = h.pop("fc1.bias")' \
    "tensor 'fc1.bias': not in the file (@cst0 needs it)"
  bad size 'h["fc1.bias"]["shape"] = [16]; h["fc1.bias"]["data_offsets"] = [0, 64]; h["x"] = {"dtype": "U8", "shape": [64], "data_offsets": [64, 128]}' \
    "tensor 'fc1.bias': 64 bytes, the module's @cst0 has 128"
  bad shape 'h["fc1.bias"]["shape"] = [31]' \
    "tensor 'fc1.bias': data_offsets [0, 128] are not the 124 bytes of its F32 shape"
  bad overlap 'h["cst1"]["data_offsets"] = [64, 2112]' "tensor 'cst1': overlaps tensor 'fc1.bias'"
  bad hole 'h["cst1"]["data_offsets"] = [192, 2240]; h["fc2.bias"]["data_offsets"] = [2240, 2368]' \
    "tensor 'cst1': a hole of 64 bytes before it (data_offsets must cover the data)"
  bad dtype 'h["fc1.bias"]["dtype"] = "F33"' "tensor 'fc1.bias': unknown dtype 'F33'"
  bad key 'h["fc1.bias"]["extra"] = 1' "tensor 'fc1.bias': unknown key 'extra'"
  bad nokey 'del h["fc1.bias"]["shape"]' "tensor 'fc1.bias': no shape"
  bad negative 'h["fc1.bias"]["shape"] = [-32]' "tensor 'fc1.bias': shape: not a non-negative integer"
  bad past 'h["cst5"]["data_offsets"][1] += 64; h["cst5"]["shape"][0] += 2' \
    "tensor 'cst5': data_offsets [6464, 7552] outside the 7488 bytes of data (truncated?)"
  bad json 'h["fc1.bias"] = [1]' "header: expected '{' (a tensor)"
}

@test "vmpack --params: each tensor's name is its resource's or its global's, one per distinct bytes" {
  bin/vmpack --params="$T/h.safetensors" "$IN/host.mlir" -o "$T/h.vmfb"
  run bin/vmpack --dump "$T/h.vmfb"
  [[ "$output" == *"@w: tensor<2x2xf32>, 16 bytes in parameter 'w'"* ]]
  [[ "$output" == *"@ones: tensor<3xi64>, 24 bytes in parameter 'ones'"* ]]
  [[ "$output" == *"@blob: tensor<4xi16>, 8 bytes in parameter 'blob'"* ]]
  pack host
  for fn in $(bin/vmpack --dump "$T/host.vmfb" | sed -n 's/^  @\([a-z_]*\)(.*/\1/p'); do
    args=$(bin/vmpack --dump "$T/host.vmfb" | sed -n "s/^  @$fn(\(.*\)) -> .*/\1/p" |
      sed 's/tensor<\([^>]*\)>/--input=\1=1/g; s/,//g')
    a=$(bin/vmrun "$T/host.vmfb" --function=$fn $args)
    b=$(bin/vmrun "$T/h.vmfb" --parameters="$T/h.safetensors" --function=$fn $args)
    [ "$a" = "$b" ]
  done
}

# globals_at VMFB: the byte offset of the globals section (kind 11)
globals_at() {
  python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", b, 32)[0]
for i in range(n):
    kind, _, off, _, _, _ = struct.unpack_from("<IIQQII", b, 64 + 32 * i)
    if kind == 11:
        print(off)
PY
}

@test "the checker: an external global needs the header's flag; a global inside has no crc" {
  cp "$T/ext.vmfb" "$T/noflag.vmfb"
  put_u32 "$T/noflag.vmfb" 44 0
  python3 tests/hardening/vmfb.py fix "$T/noflag.vmfb"
  run bin/vmrun "$T/noflag.vmfb" --parameters="$T/p.safetensors" --input=2x16xf32=0.25
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/noflag.vmfb: corrupt module: global 0 (@cst0): an external parameter, but the header's flag is not set" ]
  cp "$T/m.vmfb" "$T/crc.vmfb"
  put_u32 "$T/crc.vmfb" $(( $(globals_at "$T/crc.vmfb") + 28 )) 5
  python3 tests/hardening/vmfb.py fix "$T/crc.vmfb"
  run bin/vmrun "$T/crc.vmfb" --input=2x16xf32=0.25
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/crc.vmfb: corrupt module: global 0: crc of a constant inside the module" ]
  # an unknown header flag is refused, as older runtimes refuse bit 0
  cp "$T/m.vmfb" "$T/f2.vmfb"
  put_u32 "$T/f2.vmfb" 44 2
  python3 tests/hardening/vmfb.py fix "$T/f2.vmfb"
  run bin/vmrun "$T/f2.vmfb" --input=2x16xf32=0.25
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/f2.vmfb: corrupt module: header sizes or flags are not version 1's" ]
}
