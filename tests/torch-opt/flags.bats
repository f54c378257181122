#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# torch-opt takes mlir-opt's and torch-mlir-opt's spellings of its flags
# (issue 21): single-dash long options, torch-mlir's pass names, pass
# options, --mlir-print-ir-*, --dump-pass-pipeline, --version.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  T="$BATS_TEST_TMPDIR"
}

@test "single-dash long options mean the double-dash ones" {
  run --separate-stderr bin/torch-opt -split-input-file -canonicalize -cse "$IN/split.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"func.func @ok"*"// -----"* ]]
  [[ "$stderr" == *"split.mlir:6:10: error: "* ]]
  run bin/torch-opt -pass-pipeline='builtin.module(func.func(canonicalize,cse))' "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch.aten.mm"* ]]
  run bin/torch-opt -pass-pipeline 'builtin.module(cse)' "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  run bin/torch-opt -allow-unregistered-dialect -p '' "$IN/unregistered.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"foo.bar"'* ]]
}

@test "-p and -o keep their meaning; unknown single-dash options are refused" {
  bin/torch-opt -p cse -o "$T/out.mlir" "$IN/linear-torch.mlir"
  grep -q 'torch.aten.mm' "$T/out.mlir"
  run --separate-stderr bin/torch-opt -no-such-flag "$IN/linear-torch.mlir"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"unknown option '--no-such-flag'"* ]]
}

@test "-split-input-file prints every passing chunk and fails for the bad one" {
  run --separate-stderr bin/torch-opt -p '' -split-input-file "$IN/split.mlir"
  [ "$status" -eq 1 ]
  [ "$(printf '%s\n' "$output" | grep -c '^// -----$')" -eq 1 ]
  [[ "$output" == *"@ok"* ]]
  # -o FILE stays all-or-nothing
  run bin/torch-opt -p '' -split-input-file -o "$T/o.mlir" "$IN/split.mlir"
  [ "$status" -eq 1 ]
  [ ! -e "$T/o.mlir" ]
}

@test "torch-mlir's pass names are aliases, listed by --list-passes" {
  run bin/torch-opt --list-passes
  [[ "$output" == *"torch-decompose-complex-ops "*"torch-decompose in torch-mlir's forms"* ]]
  [[ "$output" == *"torch-lower-to-backend-contract "*"torch-backend-pipeline, with a note"* ]]
  [[ "$output" == *"torch-verify-backend-contract-no-decompositions "*"types only"* ]]
  run bin/torch-opt -torch-decompose-complex-ops "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" != *"aten.softmax"* ]]
  [[ "$output" == *"aten.amax"* ]]
  run bin/torch-opt -pass-pipeline='builtin.module(torch-lower-to-backend-contract)' "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" != *"aten.softmax"* ]]
  run bin/torch-opt -torch-decompose-complex-ops -torch-verify-backend-contract-no-decompositions "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  # as torch-mlir's: without decompositions any op may stay, types only
  run bin/torch-opt -torch-verify-backend-contract-no-decompositions "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  run bin/torch-opt -torch-verify-backend-contract "$IN/softmax.mlir"
  [ "$status" -ne 0 ]
}

@test "legal-ops: the ops named there are not decomposed" {
  run bin/torch-opt -torch-decompose-complex-ops="legal-ops=aten.foo,aten.softmax.int" "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch.aten.softmax.int"* ]]
  [[ "$output" != *"aten.amax"* ]]
  run bin/torch-opt -pass-pipeline='builtin.module(func.func(torch-decompose-complex-ops{legal-ops=torch.aten.softmax.int}))' "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch.aten.softmax.int"* ]]
  run bin/torch-opt -pass-pipeline='builtin.module(func.func(torch-decompose-complex-ops{legal-ops=aten.bar}))' "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" != *"aten.softmax"* ]]
}

@test "an unknown pass option or a bad value is an error naming it" {
  run --separate-stderr bin/torch-opt -pass-pipeline='builtin.module(func.func(torch-decompose-complex-ops{bogus=1}))' "$IN/softmax.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"pass 'torch-decompose-complex-ops' has no option 'bogus'"* ]]
  run --separate-stderr bin/torch-opt -torch-decompose-complex-ops="legal-ops=aten.x,,aten.y" "$IN/softmax.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"bad value 'aten.x,,aten.y' for option 'legal-ops'"* ]]
  run --separate-stderr bin/torch-opt -cse=foo=1 "$IN/softmax.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"cse"* ]]
}

@test "-mlir-print-ir-* are the --print-ir-* dumps" {
  run --separate-stderr bin/torch-opt -mlir-print-ir-before-all -canonicalize -cse "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"IR Dump Before canonicalize"*"IR Dump Before cse"* ]]
  [[ "$stderr" != *"IR Dump After"* ]]
  run --separate-stderr bin/torch-opt --mlir-print-ir-after-all -p canonicalize,cse "$IN/linear-torch.mlir"
  [[ "$stderr" == *"IR Dump After canonicalize"*"IR Dump After cse"* ]]
  run --separate-stderr bin/torch-opt -mlir-print-ir-after-change -p canonicalize "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" != *"IR Dump After"* ]]
  run --separate-stderr bin/torch-opt -mlir-print-ir-after-change -torch-decompose "$IN/softmax.mlir"
  [[ "$stderr" == *"IR Dump After torch-decompose"* ]]
  run --separate-stderr bin/torch-opt -mlir-print-ir-after-failure -torch-verify-backend-contract "$IN/softmax.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"IR Dump After Failed torch-verify-backend-contract"* ]]
}

@test "-mlir-print-debuginfo prints locations; -mlir-print-local-scope is accepted" {
  run bin/torch-opt -p '' -mlir-print-debuginfo "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"loc("* ]]
  run bin/torch-opt -p '' -mlir-print-local-scope "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [ "$output" = "$(bin/torch-opt -p '' "$IN/softmax.mlir")" ]
  # linalg IR: #map aliases become inline affine_map<...>, and read back
  bin/torch-opt -p '' "$IN/linear-linalg.mlir" > "$T/alias.mlir"
  grep -q '^#map' "$T/alias.mlir"
  bin/torch-opt -p '' -mlir-print-local-scope "$IN/linear-linalg.mlir" > "$T/local.mlir"
  ! grep -q '#map' "$T/local.mlir"
  grep -q 'indexing_maps = \[affine_map<' "$T/local.mlir"
  bin/torch-opt -p '' "$T/local.mlir" | diff "$T/alias.mlir" -
}

@test "-dump-pass-pipeline prints the parsed pipeline on stderr" {
  run --separate-stderr bin/torch-opt -dump-pass-pipeline -canonicalize -torch-decompose-complex-ops="legal-ops=aten.a,aten.b" "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [ "$stderr" = "builtin.module(canonicalize,func.func(torch-decompose-complex-ops{legal-ops=aten.a,aten.b}))" ]
  # the default pipeline, expanded
  run --separate-stderr bin/torch-opt -dump-pass-pipeline "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == "builtin.module("*"torch-decompose"*")" ]]
  [[ "$stderr" != *"torch-backend-pipeline"* ]]
  run --separate-stderr bin/torch-opt -dump-pass-pipeline -p 'torch-lower-to-backend-contract' "$IN/softmax.mlir"
  [[ "$stderr" == "builtin.module("*"torch-verify-backend-contract"*")" ]]
}

@test "--version and -version print the version" {
  run bin/torch-opt --version
  [ "$status" -eq 0 ]
  [[ "$output" == "torch-opt (fxpipe) "[0-9]* ]]
  run bin/torch-opt -version
  [ "$status" -eq 0 ]
  [[ "$output" == "torch-opt (fxpipe) "* ]]
}

@test "--help documents the new flags" {
  run bin/torch-opt --help
  for f in --version --dump-pass-pipeline --mlir-print-local-scope --print-ir-before-all "one dash or two"; do
    [[ "$output" == *"$f"* ]] || { echo "missing $f"; false; }
  done
}

@test "-verify-diagnostics: @+N, @-N, @above, @below, same line, {{regex}}" {
  run --separate-stderr bin/torch-opt -torch-verify-backend-contract -split-input-file -verify-diagnostics "$IN/verify-diags.mlir"
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  # every chunk's output, a failing chunk's place empty
  [ "$(printf '%s\n' "$output" | grep -c '^// -----$')" -eq 5 ]
  [[ "$output" == *"func.func @ok"* ]]
  # without the flag the same file fails
  run bin/torch-opt -torch-verify-backend-contract -split-input-file "$IN/verify-diags.mlir"
  [ "$status" -eq 1 ]
}

@test "-verify-diagnostics: unmatched and unexpected diagnostics fail as in mlir-opt" {
  run --separate-stderr bin/torch-opt -p '' -split-input-file -verify-diagnostics "$IN/verify-diags-bad.mlir"
  [ "$status" -eq 1 ]
  f="$IN/verify-diags-bad.mlir"
  [[ "$stderr" == *"$f:2:6: error: expected error \"use of undeclared SSA value\" was not produced"* ]]
  [[ "$stderr" == *"$f:3:10: error: unexpected error: use of undeclared SSA value name"* ]]
  [[ "$stderr" == *"$f:9:10: error: unexpected error: "* ]]
  [[ "$stderr" == *"$f:15:6: error: expected error \"no such message\" was not produced"* ]]
  [[ "$stderr" == *"$f:22:6: error: expected warning \"undeclared\" was not produced"* ]]
  [[ "$output" == *"func.func @fine"* ]]
}

@test "-verify-diagnostics: a malformed expectation is an error" {
  printf 'func.func @f() {\n  // expected-error @sideways {{x}}\n  return\n}\n' > "$T/m.mlir"
  run --separate-stderr bin/torch-opt -p '' -verify-diagnostics "$T/m.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"expected '@above', '@below' or '@+N'/'@-N'"* ]]
  printf 'func.func @f() {\n  // expected-error {{x\n  return\n}\n' > "$T/m.mlir"
  run --separate-stderr bin/torch-opt -p '' -verify-diagnostics "$T/m.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"expected {{message}}"* ]]
}

@test "-verify-diagnostics: a failure that no diagnostic explains still fails" {
  run --separate-stderr bin/torch-opt -verify-diagnostics -pass-pipeline='builtin.module(torch-decompose)' "$IN/softmax.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"runs on 'func.func'"* ]]
}

@test "-mlir-elide-elementsattrs-if-larger=N elides big literals in dumps only" {
  run --separate-stderr bin/torch-opt -p cse -mlir-print-ir-after-all -mlir-elide-elementsattrs-if-larger=4 "$IN/literals.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"torch.vtensor.literal(dense_resource<__elided__> : tensor<2x3xf32>)"* ]]
  [[ "$stderr" == *"torch.vtensor.literal(dense_resource<__elided__> : tensor<8xf32>)"* ]]
  [[ "$stderr" == *"dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"* ]]
  [[ "$stderr" != *"blob8"* ]]
  # the output itself is whole and reads back
  [[ "$output" != *"__elided__"* ]]
  [[ "$output" == *"blob8"* ]]
  printf '%s\n' "$output" | bin/torch-opt -p '' > /dev/null
  # without the flag, literals of up to 16 elements are whole
  run --separate-stderr bin/torch-opt -p cse -mlir-print-ir-after-all "$IN/literals.mlir"
  [[ "$stderr" != *"__elided__"* ]]
  run --separate-stderr bin/torch-opt -p cse -mlir-elide-elementsattrs-if-larger=x "$IN/literals.mlir"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"bad value 'x'"* ]]
}

@test "--print-ir-after-all elides literals of more than 16 elements unless =0" {
  printf 'func.func @f() -> !torch.vtensor<[17],f32> {\n  %%0 = torch.vtensor.literal(dense<%s> : tensor<17xf32>) : !torch.vtensor<[17],f32>\n  return %%0 : !torch.vtensor<[17],f32>\n}\n' \
    "[$(seq -f '%g.0' -s ', ' 1 17)]" > "$T/big.mlir"
  for flag in --print-ir-after-all --print-ir-before-all --print-ir-after-change; do
    run --separate-stderr bin/torch-opt -p canonicalize $flag "$T/big.mlir"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"dense_resource<__elided__> : tensor<17xf32>"* ]] || [ $flag = --print-ir-after-change ]
    [[ "$output" == *"1.700000e+01"* ]]
  done
  run --separate-stderr bin/torch-opt -p canonicalize --print-ir-after-all -mlir-elide-elementsattrs-if-larger=0 "$T/big.mlir"
  [[ "$stderr" != *"__elided__"* ]]
  [[ "$stderr" == *"1.700000e+01"* ]]
  run --separate-stderr bin/torch-opt -p canonicalize --print-ir-after-all -mlir-elide-elementsattrs-if-larger=17 "$T/big.mlir"
  [[ "$stderr" != *"__elided__"* ]]
}

@test "-mlir-pass-statistics counts runs, changes and ops per pass" {
  run --separate-stderr bin/torch-opt -mlir-pass-statistics -canonicalize -torch-decompose "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"... Pass statistics report ..."* ]]
  printf '%s\n' "$stderr" > "$T/s.txt"
  # canonicalize changed nothing on the module; torch-decompose grew its function
  grep -A4 '^  canonicalize$' "$T/s.txt" | grep -q '(changed)    0 '
  grep -A4 '^    torch-decompose$' "$T/s.txt" | grep -q '(changed)    1 '
  grep -A4 '^    torch-decompose$' "$T/s.txt" | grep -q '(ops-before) 5 '
  grep -q "^  'func.func' Pipeline$" "$T/s.txt"
  run --separate-stderr bin/torch-opt -canonicalize "$IN/softmax.mlir"
  [[ "$stderr" != *"statistics"* ]]
}

@test "-mlir-disable-threading and -mlir-print-ir-module-scope are accepted and change nothing" {
  run --separate-stderr bin/torch-opt -mlir-disable-threading -mlir-print-ir-module-scope -mlir-print-ir-after-all -canonicalize "$IN/softmax.mlir"
  [ "$status" -eq 0 ]
  [ "$output" = "$(bin/torch-opt -canonicalize "$IN/softmax.mlir" 2>/dev/null)" ]
  run bin/torch-opt --help
  [[ "$output" == *"--mlir-disable-threading"* ]]
}
