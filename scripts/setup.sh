#!/bin/sh
# setup.sh - installs what fxpipe needs on Debian 12, then builds.
# Safe to run again: it installs only what is missing.
set -e
PKGS="make gcc libjansson-dev llvm-16-dev llvm-16-tools mlir-16-tools libmlir-16 bats
python3-torch python3-torchvision python3-jsonschema man-db
libopenblas0-pthread clang-16 libclang-rt-16-dev"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
		|| missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing" >&2
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
cd "$(dirname "$0")/.."
make -j"$(nproc)" >/dev/null
