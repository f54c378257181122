#!/usr/bin/env bash
# lit.sh FILE - runs the `// RUN:` lines of one test file, like LLVM's lit:
# %s is the file, %S its directory, %t a scratch path; lines ending in `\`
# continue; every pipeline runs with pipefail.  Exit status: 0 if all passed.
set -u
file=$1
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:/usr/lib/llvm-16/bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmds=()
cur=
while IFS= read -r line; do
	case $line in
	*"RUN:"*) ;;
	*) continue ;;
	esac
	part=${line#*RUN:}
	part=${part# }
	if [[ $part == *\\ ]]; then
		cur+="${part%\\} "
		continue
	fi
	cmds+=("$cur$part")
	cur=
done < "$file"

if [ ${#cmds[@]} -eq 0 ]; then
	echo "$file: no RUN lines" >&2
	exit 1
fi
dir=$(cd "$(dirname "$file")" && pwd)
abs="$dir/$(basename "$file")"
for c in "${cmds[@]}"; do
	c=${c//%s/$abs}
	c=${c//%S/$dir}
	c=${c//%t/$tmp/t}
	echo "RUN: $c" >&2
	if ! (cd "$tmp" && bash -o pipefail -c "$c"); then
		echo "FAILED: $c" >&2
		exit 1
	fi
done
