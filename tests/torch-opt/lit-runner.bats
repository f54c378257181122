#!/usr/bin/env bats
# scripts/torch-mlir-lit on a made-up torch-mlir tree (issue 21): RUN lines
# run as written with torch-opt for torch-mlir-opt, per function within a
# split-input-file chunk, files of other passes left out unless --all.

setup() {
  T="$BATS_TEST_TMPDIR/tm"
  mkdir -p "$T/test/Dialect/Torch" "$T/test/Conversion/TorchToLinalg"
  # chunk 1: one function that folds as checked; chunk 2: three functions,
  # the second with a check that only a later one's output matches; chunk
  # 3 does not parse
  cat > "$T/test/Dialect/Torch/canonicalize.mlir" <<'MLIR'
// RUN: torch-mlir-opt %s -canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @add
// CHECK-NEXT:    %[[C:.*]] = torch.constant.int 10
// CHECK-NEXT:    return %[[C]]
func.func @add() -> !torch.int {
  %int7 = torch.constant.int 7
  %int3 = torch.constant.int 3
  %0 = torch.aten.add.int %int7, %int3 : !torch.int, !torch.int -> !torch.int
  return %0 : !torch.int
}

// -----

// CHECK-LABEL: func.func @mul
// CHECK-NEXT:    %[[C:.*]] = torch.constant.int 21
func.func @mul() -> !torch.int {
  %int7 = torch.constant.int 7
  %int3 = torch.constant.int 3
  %0 = torch.aten.mul.int %int7, %int3 : !torch.int, !torch.int -> !torch.int
  return %0 : !torch.int
}

// @wrong's check holds in @late's output alone: not a pass of @wrong when
// the chunk fails (@late's own check does not hold)
// CHECK-LABEL: func.func @wrong
// CHECK:         torch.constant.int 5
func.func @wrong() -> !torch.int {
  %int7 = torch.constant.int 7
  %0 = torch.aten.neg.int %int7 : !torch.int -> !torch.int
  return %0 : !torch.int
}

// CHECK-LABEL: func.func @late
// CHECK-NEXT:    torch.constant.int 6
func.func @late() -> !torch.int {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.aten.add.int %int2, %int3 : !torch.int, !torch.int -> !torch.int
  return %0 : !torch.int
}

// -----

func.func @bad() {
  %0 = torch.no_such_op
  return
}
MLIR
  cat > "$T/test/Dialect/Torch/other.mlir" <<'MLIR'
// RUN: torch-mlir-opt %s -torch-no-such-pass | FileCheck %s
// CHECK: func.func @f
func.func @f() {
  return
}
MLIR
}

@test "torch-mlir-lit counts functions per chunk, blames each function's own checks" {
  run scripts/torch-mlir-lit "$T" --failures --jobs 1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"test/Dialect/Torch/canonicalize.mlir"*" 2 /    5"* ]]
  [[ "$output" == *"chunk 1 @wrong: "*"error"* ]]
  [[ "$output" == *"chunk 2 @bad: "*"torch.no_such_op"* ]]
  [[ "$output" != *"@mul:"* ]]
  [[ "$output" == *"chunk 1 @late: "*"error"* ]]
  [[ "$output" == *"2 of 5 test functions pass (40.0%)"* ]]
  [[ "$output" != *"other.mlir"* ]]
}

# FileCheck variables carry from chunk to chunk and function to function as
# in lit's one FileCheck over the whole file (no --enable-var-scope)
vars_file() {
  f() { printf 'func.func @%s() -> !torch.int {\n  %%c = torch.constant.int %s\n  return %%c : !torch.int\n}\n' "$1" "$2"; }
  {
    echo '// RUN: torch-mlir-opt %s -canonicalize --split-input-file | FileCheck %s'
    echo '// CHECK-LABEL: func.func @def'
    echo '// CHECK-NEXT: [[$G:torch.constant.int]] [[N:[0-9]+]]'
    f def 10; echo '// -----'
    echo '// CHECK-LABEL: func.func @use'
    echo '// CHECK-NEXT: [[$G]] [[N]]'
    f use 10; echo '// -----'
    echo '// CHECK-LABEL: func.func @misuse'
    echo '// CHECK-NEXT: torch.constant.int [[N]]'
    f misuse 11; echo '// -----'
    echo '// CHECK-LABEL: func.func @nodef'
    echo '// CHECK-NEXT: torch.constant.int [[M:[0-9]+]] nothing'
    f nodef 12
    echo '// CHECK-LABEL: func.func @undef'
    echo '// CHECK-NEXT: torch.constant.int [[M]]'
    f undef 12; echo '// -----'
    echo '// CHECK-LABEL: func.func @a'
    echo '// CHECK-NEXT: torch.constant.int [[K:[0-9]+]]'
    f a 13
    echo '// CHECK-LABEL: func.func @b'
    echo '// CHECK-NEXT: torch.constant.int [[K]]'
    f b 13
    echo '// CHECK-LABEL: func.func @c'
    echo '// CHECK-NEXT: torch.constant.int [[N]]'
    f c 14
  } > "$T/test/Dialect/Torch/vars.mlir"
}

@test "torch-mlir-lit carries FileCheck variables from earlier chunks and functions" {
  vars_file
  run scripts/torch-mlir-lit "$T" --filter vars --failures --jobs 1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"vars.mlir"*" 4 /    8"* ]]
  [[ "$output" != *"@use:"* && "$output" != *"@a:"* && "$output" != *"@b:"* && "$output" != *"@def:"* ]]
  [[ "$output" == *"@misuse: "*"expected string not found"* ]]
  [[ "$output" == *"@nodef: "*"error"* ]]
  [[ "$output" == *"@undef: "*"undefined variable: M"* ]]
  [[ "$output" == *"@c: "*"expected string not found"* ]]
}

@test "torch-mlir-lit --all runs the files of passes torch-opt lacks, counted apart" {
  run scripts/torch-mlir-lit "$T" --all --jobs 1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"other.mlir"*" 0 /    1"* ]]
  [[ "$output" == *"other passes: 0 of 1"* ]]
  [[ "$output" == *"2 of 5 test functions pass"* ]]
}

@test "torch-mlir-lit reads a bare git repository at HEAD, and refuses what is neither" {
  git -C "$T" init -q && git -C "$T" add -A && git -C "$T" -c user.name=t -c user.email=t@t commit -qm t
  git clone -q --bare "$T" "$BATS_TEST_TMPDIR/bare.git"
  run scripts/torch-mlir-lit "$BATS_TEST_TMPDIR/bare.git" --jobs 1
  [ "$status" -eq 0 ]
  [[ "$output" == *"2 of 5 test functions pass"* ]]
  run scripts/torch-mlir-lit "$BATS_TEST_TMPDIR" --jobs 1
  [ "$status" -ne 0 ]
  [[ "$output" == *"torch-mlir-lit: error: "*"neither"* ]]
}
