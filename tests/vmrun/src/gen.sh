#!/bin/sh
# gen.sh - regenerates tests/vmrun/inputs/kernels-*.mlir: compiles
# kernels.c four ways and embeds each object in the same fxvm module
# (kernels.mlir.in, @OBJECT@ and @SIZE@ replaced), so that the tests meet
# every relocation type of gcc and LLVM 16 output:
#   gcc-nopic  gcc -fno-pic                 R_X86_64_32, 32S, 64, PC32, PLT32
#   gcc-pic    gcc -fPIC -fno-plt, no relax GOTPCREL, 64, PC32
#   gcc-relax  gcc -fPIC -fno-plt           GOTPCRELX, REX_GOTPCRELX
#   llc16      clang -emit-llvm | llc-16    LLVM 16's defaults (with .eh_frame)
# Run from anywhere; needs gcc, clang and llc-16.  The outputs are
# committed, so the tests need none of these.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../inputs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

obj() {  # obj FLAVOR -> $tmp/FLAVOR.o
	case $1 in
	gcc-nopic) gcc -c -O2 -fno-pic -fno-asynchronous-unwind-tables "$here/kernels.c" -o "$tmp/$1.o" ;;
	gcc-pic) gcc -c -O2 -fPIC -fno-plt -Wa,-mrelax-relocations=no -fno-asynchronous-unwind-tables "$here/kernels.c" -o "$tmp/$1.o" ;;
	gcc-relax) gcc -c -O2 -fPIC -fno-plt -fno-asynchronous-unwind-tables "$here/kernels.c" -o "$tmp/$1.o" ;;
	llc16) clang -O2 -S -emit-llvm "$here/kernels.c" -o "$tmp/$1.ll" 2>/dev/null
	       llc-16 -O2 -filetype=obj "$tmp/$1.ll" -o "$tmp/$1.o" ;;
	esac
	# The .comment section names the compiler version: drop it, so that
	# regenerating on another machine changes less.
	objcopy --remove-section=.comment "$tmp/$1.o"
}

for f in gcc-nopic gcc-pic gcc-relax llc16; do
	obj $f
	size=$(wc -c < "$tmp/$f.o" | tr -d ' ')
	hex=$(od -An -v -tx1 "$tmp/$f.o" | tr -d ' \n')
	sed -e "s/@SIZE@/$size/g" -e "s/@FLAVOR@/$f/g" "$here/kernels.mlir.in" > "$tmp/$f.mlir"
	# A dense_resource blob: its alignment as 4 little-endian bytes, then the bytes.
	printf '\n{-#\n  dialect_resources: {\n    builtin: {\n      kernels: "0x10000000%s"\n    }\n  }\n#-}\n' "$hex" >> "$tmp/$f.mlir"
	mv "$tmp/$f.mlir" "$out/kernels-$f.mlir"
done
