#!/bin/sh
# setup.sh - installs what fxpipe needs on Debian 12, then builds.
# Safe to run again: it installs only what is missing.
set -e
PKGS="make gcc libjansson-dev llvm-16-dev llvm-16-tools mlir-16-tools libmlir-16 bats
python3-torch python3-torchvision python3-jsonschema man-db graphviz
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

# PyTorch 2 for the tests' second pass (tests/pt2/) and torch.compile's
# backend, in .venv/: Debian's python3-torch (1.13) stays the default.
# PyPI has only the CUDA build; of its NVIDIA dependencies CPU use needs
# the libraries libtorch.so links (libtorch_cuda.so's DT_NEEDED) and not
# triton, cuda-bindings or the nvtx headers (GPU-only).  Wheels are kept
# in $FXPIPE_WHEELS, so a second set-up downloads nothing.
# FXPIPE_NO_TORCH2=1 skips this part.
TORCH2=2.14.1
TORCHVISION2=0.29.2
NVIDIA="nvidia-cublas==13.1.1.3 nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.96
nvidia-cufft==12.0.0.61 nvidia-nvjitlink==13.5.37 nvidia-cufile==1.15.1.6
nvidia-cuda-cupti==13.0.85 nvidia-curand==10.4.0.35 nvidia-cusolver==12.0.4.66
nvidia-cusparse==12.6.3.3 nvidia-cudnn-cu13==9.24.0.43 nvidia-cusparselt-cu13==0.8.1
nvidia-nccl-cu13==2.30.7 nvidia-nvshmem-cu13==3.4.5"
PURE="filelock typing-extensions>=4.10.0 setuptools>=77.0.3 sympy>=1.13.3 networkx>=2.5.1
jinja2 fsspec>=0.8.5 numpy pillow"
WHEELS=${FXPIPE_WHEELS:-$HOME/.cache/pip/fxpipe-wheels}
# ONNX Runtime for `make bench`'s ORT column; onnxscript (with onnx) for
# torch.onnx.export, whose default exporter needs it (the TorchScript one
# fails on TransformerEncoderLayer under PyTorch 2.14)
ONNX="onnxruntime==1.32.0 onnx==1.23.2 onnxscript==0.7.2"
# torchao: PyTorch 2's int8 quantization flow (PT2E: prepare_pt2e,
# convert_pt2e and its quantizers moved there from torch.ao), for the
# quantized-model tests
TORCHAO="torchao==0.18.0"

torch2_ok() {
	.venv/bin/python -c "import sys, torch, torchvision
sys.exit(torch.__version__.split('+')[0] != '$TORCH2')" 2>/dev/null
}

# wheels (with their dependencies) from $WHEELS, downloaded there first
# where missing
install_kept() {
	pip=".venv/bin/python -m pip -q"
	$pip install --no-index --find-links "$WHEELS" "$@" 2>/dev/null || {
		$pip download -d "$WHEELS" "$@"
		$pip install --no-index --find-links "$WHEELS" "$@"
	}
}

install_torch2() {
	[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
	install_kept $PURE
	pip=".venv/bin/python -m pip -q"
	# Offline from the kept wheels first; the index only for what is missing.
	# Torch after its dependencies: pip's check would call the GPU-only
	# packages left out missing.
	if ! $pip install --no-index --find-links "$WHEELS" --no-deps \
		torch==$TORCH2 torchvision==$TORCHVISION2 $NVIDIA 2>/dev/null; then
		$pip download -d "$WHEELS" --no-deps torch==$TORCH2 torchvision==$TORCHVISION2 $NVIDIA
		$pip install --no-index --find-links "$WHEELS" --no-deps \
			torch==$TORCH2 torchvision==$TORCHVISION2 $NVIDIA
	fi
}

if [ "${FXPIPE_NO_TORCH2:-0}" != 1 ]; then
	if ! torch2_ok; then
		echo "setup: installing PyTorch $TORCH2 into .venv/ (wheels kept in $WHEELS)" >&2
		mkdir -p "$WHEELS"
		install_torch2
		torch2_ok || { echo "setup: .venv/ cannot import torch $TORCH2" >&2; exit 1; }
	fi
	if ! .venv/bin/python -c "import onnxruntime, onnxscript" 2>/dev/null; then
		echo "setup: installing ONNX Runtime into .venv/" >&2
		install_kept $ONNX
	fi
	if ! .venv/bin/python -c "import torchao" 2>/dev/null; then
		echo "setup: installing torchao into .venv/" >&2
		install_kept --no-deps $TORCHAO
	fi
	# The package, editable: torch.compile(backend="fxpipe") finds it by
	# its entry point, and it runs the tree's code.
	.venv/bin/python -m pip show -q fxpipe >/dev/null 2>&1 ||
		.venv/bin/python -m pip -q install --no-index --no-build-isolation --no-deps -e python
fi
