#!/usr/bin/env bats
# codegen --target=cuda's flags, the CUDA module in vmpack --dump, and
# vmrun --device=cuda on a machine without a driver or GPU.

load helpers

SRC=tests/codegen/softmax.mlir

no_driver() {
  "$PY" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null &&
    skip "this machine has a CUDA driver"
  true
}

@test "cuda: the module records the target, the arch and each kernel's launch" {
  run bin/codegen --target=cuda --gpu-arch=sm_90 $SRC
  [ "$status" -eq 0 ]
  [[ "$output" == *'fxvm.cpu = "sm_90"'* ]]
  [[ "$output" == *'fxvm.target = "cuda"'* ]]
  [[ "$output" == *'format = "ptx"'* ]]
  [[ "$output" == *'block = array<i64: 256, 1, 1>'* ]]
  [[ "$output" == *'shared = 64 : i64'* ]]
}

@test "cuda: --emit=ptx prints PTX for the arch, --emit=llvm the NVPTX module" {
  run bin/codegen --target=cuda --gpu-arch=sm_86 --emit=ptx $SRC
  [ "$status" -eq 0 ]
  [[ "$output" == *'.target sm_86'* ]]
  [[ "$output" == *'.visible .entry dispatch_0('* ]]
  [[ "$output" == *'shfl.sync.bfly'* ]]
  [[ "$output" == *'bar.sync'* ]]
  run bin/codegen --target=cuda --emit=llvm $SRC
  [ "$status" -eq 0 ]
  [[ "$output" == *'target triple = "nvptx64-nvidia-cuda"'* ]]
  [[ "$output" == *'!"kernel", i32 1'* ]]
  [[ "$output" == *'ptr addrspace(1)'* ]]
}

@test "cuda: a contraction tiles through shared memory; --no-microkernel and -O0" {
  bin/torch-lower tests/cuda/emu/mm_bias_relu.mlir -o "$T/l.mlir"
  run bin/codegen --target=cuda "$T/l.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'shared = 8448 : i64'* ]]
  run bin/codegen --target=cuda --emit=ptx "$T/l.mlir"
  [[ "$output" == *'ld.shared.f32'* ]]
  [[ "$output" == *'bar.sync'* ]]
  run bin/codegen --target=cuda --no-microkernel "$T/l.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'shared = 0 : i64'* ]]
  # without LLVM's pipeline, still valid PTX
  run bin/codegen --target=cuda -O0 --emit=ptx "$T/l.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'.visible .entry dispatch_0('* ]]
}

@test "cuda: f16 and bf16 contractions run on tensor cores (mma.sync, sm_80 and sm_90)" {
  sed 's/f16/bf16/g' tests/cuda/emu/mm_f16.mlir > "$T/bf16.mlir"
  for f in tests/cuda/emu/mm_f16.mlir "$T/bf16.mlir"; do
    bin/torch-lower "$f" -o "$T/l.mlir"
    run bin/codegen --target=cuda "$T/l.mlir"
    [ "$status" -eq 0 ]
    [[ "$output" == *'shared = 6144 : i64'* ]]
    cuda_compile "$T/l.mlir"
  done
  grep -q 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32' "$T/m.ptx"
  bin/torch-lower tests/cuda/emu/mm_f16.mlir | bin/codegen --target=cuda --emit=ptx |
    grep -q 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'
}

@test "cuda: bad flags are clear errors" {
  run bin/codegen --target=cuda --gpu-arch=sm_70 $SRC
  [ "$status" -eq 1 ]
  [[ "$output" == *"unsupported --gpu-arch 'sm_70'"* ]]
  run bin/codegen --target=tpu $SRC
  [ "$status" -eq 1 ]
  [[ "$output" == *"unsupported target 'tpu'"* ]]
  run bin/codegen --gpu-arch=sm_80 $SRC
  [ "$status" -eq 1 ]
  [[ "$output" == *"--gpu-arch is for --target=cuda"* ]]
  run bin/codegen --emit=ptx $SRC
  [ "$status" -eq 1 ]
  [[ "$output" == *"--emit=ptx is for --target=cuda"* ]]
}

@test "cuda: vmpack --dump shows the PTX kernels" {
  bin/codegen --target=cuda $SRC | bin/vmpack -o "$T/m.vmfb"
  run bin/vmpack --dump "$T/m.vmfb"
  [ "$status" -eq 0 ]
  [[ "$output" == *"target: cuda, cpu sm_80"* ]]
  [[ "$output" == *"ptx"* ]]
  [[ "$output" == *"block 256x1x1, 64 shared bytes"* ]]
}

@test "cuda: vmrun --device=cuda without a driver exits 1 with its message" {
  no_driver
  bin/codegen --target=cuda $SRC | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=4x64xf32=1
  [ "$status" -eq 1 ]
  [[ "$output" == *"--device=cuda: cannot load libcuda.so.1 (no NVIDIA driver)"* ]]
  run bin/vmrun --device=cuda "$T/m.vmfb" --input=4x64xf32=1
  [ "$status" -eq 1 ]
  [[ "$output" == *"cannot load libcuda.so.1"* ]]
}

@test "cuda: a CUDA module on the CPU device is a clear error" {
  bin/codegen --target=cuda $SRC | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun --device=cpu "$T/m.vmfb" --input=4x64xf32=1
  [ "$status" -eq 1 ]
  [[ "$output" == *"the module targets cuda, not cpu (use --device=cuda)"* ]]
}

@test "cuda: a CPU module on the CUDA device is a clear error" {
  bin/codegen $SRC 2>/dev/null | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun --device=cuda "$T/m.vmfb" --input=4x64xf32=1
  [ "$status" -eq 1 ]
  [[ "$output" == *"--device=cuda"* ]]
}

@test "cuda: vmpack refuses a PTX executable in a CPU module" {
  bin/codegen --target=cuda $SRC | sed 's/fxvm.target = "cuda"/fxvm.target = "cpu"/' > "$T/m.fxvm"
  run bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  [ "$status" -eq 1 ]
  [[ "$output" == *"a ptx object in a module for another target"* ]]
}
