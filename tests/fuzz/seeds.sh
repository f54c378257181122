#!/bin/sh
# seeds.sh - rebuilds the seed corpora tests/fuzz/corpus/<target>/ from the
# tree's test inputs.  Run from the repository root after `make` (vmpack
# builds the vmfb seeds; python3 with numpy writes the .npy seeds).  The
# corpora are checked in; run this when the inputs change.
set -eu
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C/ir" "$C/fxjson" "$C/vmfb" "$C/npy" "$C/textin" "$C/safetensors"

# ir: every .mlir test input up to 16 KB, each "// -----" chunk a seed
find tests -name '*.mlir' -size -16k | sort | while read -r f; do
	n=$(echo "$f" | sed 's|^tests/||; s|/|-|g; s|\.mlir$||')
	awk -v out="$C/ir/$n" '
		/^\/\/ -----$/ { k++; next }
		{ print > (out "." k) }' k=0 "$f"
done

# fxjson: JSON, a NUL, the safetensors file it names (if any)
for j in tests/fx-import/inputs/*.json tests/fx-import/bad/*.json; do
	d=$(dirname "$j")
	w=$(sed -n 's/.*"file": *"\([^"]*\)".*/\1/p' "$j" | head -1)
	n=$(echo "$j" | sed 's|^tests/fx-import/||; s|/|-|g; s|\.json$||')
	{ cat "$j"; if [ -n "$w" ] && [ -f "$d/$w" ]; then printf '\0'; cat "$d/$w"; fi; } > "$C/fxjson/$n"
done

# safetensors: fx-import's small weights files, the hardening tests'
# malformed ones, and one of vmpack --params's (64-byte aligned, __pad.N)
for f in tests/fx-import/inputs/mlp-torch.safetensors tests/fx-import/inputs/linear-aten.safetensors \
	tests/fx-import/inputs/complex-aten.safetensors tests/hardening/inputs-front/st-*.safetensors; do
	cp "$f" "$C/safetensors/"
done
bin/fx-import tests/fx-import/inputs/mlp-torch.json | bin/torch-opt | bin/torch-lower |
	bin/codegen --target=cpu | bin/vmpack --params="$C/safetensors/vmpack-mlp.safetensors" -o /dev/null

# vmfb: the vmrun tests' small modules
for m in host kernels-gcc-nopic kernels-gcc-pic kernels-gcc-relax kernels-llc16; do
	bin/vmpack tests/vmrun/inputs/$m.mlir -o "$C/vmfb/$m.vmfb"
done
# and one from codegen, with a kernel_info section (names, sources, FLOPs)
bin/codegen tests/codegen/inputs/seed-linear-linalg.mlir | bin/vmpack -o "$C/vmfb/seed-linear.vmfb"

# npy: the vmrun tests' files and a few more shapes, dtypes and versions
cp tests/vmrun/inputs/npy/*.npy "$C/npy/"
python3 - "$C/npy" <<'PY'
import struct, sys
d = sys.argv[1]
def save(name, descr, shape, data, version=1):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % n for n in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    pre = 10 if version == 1 else 12
    h += " " * ((64 - (pre + len(h) + 1) % 64) % 64) + "\n"
    n = struct.pack("<H", len(h)) if version == 1 else struct.pack("<I", len(h))
    with open("%s/%s.npy" % (d, name), "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]) + n + h.encode() + data)
save("scalar_f32", "<f4", (), struct.pack("<f", 2.5))
save("empty_i64", "<i8", (0, 3), b"")
save("rank3_u16", "<u2", (2, 3, 4), struct.pack("<24H", *range(24)))
save("u32", "<u4", (5,), struct.pack("<5I", *range(5)))
save("u64", "<u8", (3,), struct.pack("<3Q", *range(3)))
save("bool", "|b1", (4,), bytes([1, 0, 0, 1]))
save("v2_f32", "<f4", (2, 3), struct.pack("<6f", *range(6)), 2)
save("v3_f64", "<f8", (2,), struct.pack("<2d", 1.5, -0.0), 3)
PY

# textin: --input values in the style of the vmrun tests
i=0
for s in '2x3xf32=1,2,3,4,5,6' '2x3xi32=[1 2 3][4 5 6]' '2x3xi32' '2x3xi1=true,false,1,0,1,true' \
	'2x3xf64=-0.5' '4xf16=1,-2,inf,nan' '3xbf16=0.5,1e3,-0' 'f32=7' '0x4xi64' \
	'1x1x2xui8=255,0' '2xui16=65535,1' '2xui32=4294967295,0' '2xui64=18446744073709551615,0' \
	'2xi8=-128,127' '2xi16=-32768,32767' '2xi64=-9223372036854775808,9223372036854775807' \
	'2x2xf32=[[1, 2], [3, 4]]'; do
	printf '%s' "$s" > "$C/textin/seed$i"
	i=$((i + 1))
done
