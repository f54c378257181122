#!/bin/sh
# symbols.sh - no global symbol is defined twice among the objects a tool
# links: its own (tools/T/*.c) and every member of libfx.a, pulled in or
# not.  The archive hides such a copy until some change pulls both objects
# into one link; this finds it first.  Run after make, with BUILD as
# tests/run.sh exports it (build/opt, or build/asan under SANITIZE=1).
# Prints "TOOL: SYMBOL in A.o B.o" for each duplicate; exits 1 if any.
build=${BUILD:-build/opt}
cd "$(dirname "$0")/../.." || exit 2

# the archive's members, as the Makefile's LIBSRC names them
lib=$(ls lib/*.c lib/torch/*.c lib/rt/*.c | sed "s|^lib/\(.*\)\.c$|$build/lib/\1.o|")
members=$(ar t "$build/libfx.a") || exit 2
if [ "$(echo "$lib" | wc -l)" -ne "$(echo "$members" | wc -l)" ]; then
	echo "symbols.sh: $build/libfx.a does not hold lib/'s objects (stale build?)" >&2
	exit 2
fi

bad=0
for main in tools/*/main.c; do
	t=$(basename "$(dirname "$main")")
	objs=$(ls tools/"$t"/*.c | sed "s|^tools/\(.*\)\.c$|$build/tools/\1.o|")
	for o in $objs $lib; do
		[ -f "$o" ] || { echo "symbols.sh: $o is missing (run make)" >&2; exit 2; }
	done
	# nm -A: "FILE:ADDR TYPE NAME" (a common symbol has no address)
	dups=$(nm -A -g --defined-only $objs $lib | awk -v t="$t" '
		{ f = $1; sub(/:.*/, "", f); s = $NF
		  in_[s] = in_[s] " " f; n[s]++ }
		END { for (s in n) if (n[s] > 1) print t ": " s " in" in_[s] }' | sort)
	if [ -n "$dups" ]; then
		echo "$dups"
		bad=1
	fi
done
exit $bad
