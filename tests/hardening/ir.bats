#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Issue 17, the IR text reader and printer every IR tool shares: deep
# nesting, short weight blobs, empty input and big inputs are each a clear
# error (or a quick success), never a crash, an abort or minutes of work.

setup() {
  T="$BATS_TEST_TMPDIR"
}

# refused FILE WANT TOOL...: each tool exits 1 with nothing on stdout, one
# error line that starts with WANT (a glob), and -o leaves no file
refused() {
  local f="$1" want="$2" t
  shift 2
  for t in "$@"; do
    run --separate-stderr bin/$t "$f"
    [ "$status" -eq 1 ] || { echo "$t: status $status: ${stderr:0:300}"; return 1; }
    [ -z "$output" ] || { echo "$t: stdout"; return 1; }
    [ "${#stderr_lines[@]}" -eq 1 ] || { echo "$t: ${stderr:0:300}"; return 1; }
    [[ "$stderr" == $want* ]] || { echo "$t: $stderr"; return 1; }
    run bin/$t -o "$T/out" "$f"
    [ "$status" -eq 1 ] && [ ! -e "$T/out" ] || { echo "$t: -o"; return 1; }
  done
}

# nest N OPEN INNER CLOSE: OPEN N times, INNER, CLOSE N times
nest() {
  python3 -c 'import sys; n = int(sys.argv[1]); print(sys.argv[2] * n + sys.argv[3] + sys.argv[4] * n, end="")' "$@"
}

@test "types nested 50000 deep: an error at the type too deep, in every IR tool" {
  # `func.func private @f() -> ` is 26 columns; 256 levels are read, the
  # 257th is refused
  echo "func.func private @f() -> $(nest 50000 'tuple<' i32 '>')" > "$T/tuple.mlir"
  refused "$T/tuple.mlir" "$T/tuple.mlir:1:$((27 + 256 * 6)): error: type nested too deeply" \
    torch-opt torch-lower codegen
  echo "func.func private @f() -> $(nest 50000 '!torch.list<' int '>')" > "$T/list.mlir"
  refused "$T/list.mlir" "$T/list.mlir:1:$((27 + 256 * 12)): error: type nested too deeply" \
    torch-opt torch-lower codegen
  echo "func.func private @f() -> $(nest 50000 '!torch.optional<' '!torch.int' '>')" > "$T/opt.mlir"
  refused "$T/opt.mlir" "$T/opt.mlir:1:$((27 + 256 * 16)): error: type nested too deeply" \
    torch-opt torch-lower codegen
  echo "func.func private @f(%a: $(nest 50000 '(() -> ' '()' ')'))" > "$T/fn.mlir"
  refused "$T/fn.mlir" "$T/fn.mlir:1:*: error: type nested too deeply" torch-opt torch-lower codegen
  echo "func.func private @f() attributes {x = $(nest 50000 '!torch.tuple<' int '>')}" > "$T/tt.mlir"
  refused "$T/tt.mlir" "$T/tt.mlir:1:*: error: type nested too deeply" torch-opt torch-lower codegen
  echo "func.func private @f() attributes {x = $(nest 50000 '!torch.union<list<' int '>>')}" > "$T/tu.mlir"
  refused "$T/tu.mlir" "$T/tu.mlir:1:*: error: type nested too deeply" torch-opt
  echo "func.func private @f() attributes {x = $(nest 50000 '!torch.vtensor<[],' f32 '>')}" > "$T/vt.mlir"
  refused "$T/vt.mlir" "$T/vt.mlir:1:*: error: type nested too deeply" torch-opt
  echo "func.func private @f() attributes {x = $(nest 50000 'tensor<' f32 '>')}" > "$T/t.mlir"
  refused "$T/t.mlir" "$T/t.mlir:1:*: error: type nested too deeply" torch-opt
}

@test "attributes nested 50000 deep: an error at the attribute too deep, in every IR tool" {
  # `func.func private @f() attributes {x = ` is 39 columns; inside the op
  # 999 levels are read, the 1000th is refused
  echo "func.func private @f() attributes {x = $(nest 50000 '{a = ' 1 '}')}" > "$T/dict.mlir"
  refused "$T/dict.mlir" "$T/dict.mlir:1:*: error: attribute nested too deeply" \
    torch-opt torch-lower codegen
  echo "func.func private @f() attributes {x = $(nest 50000 '[' 1 ']')}" > "$T/arr.mlir"
  refused "$T/arr.mlir" "$T/arr.mlir:1:$((40 + 999)): error: attribute nested too deeply" \
    torch-opt torch-lower codegen
  echo "func.func private @f() attributes {x = $(nest 50000 '[{a = ' 1 '}]')}" > "$T/mix.mlir"
  refused "$T/mix.mlir" "$T/mix.mlir:1:*: error: attribute nested too deeply" torch-opt
}

@test "affine expressions 200000 terms long or negated: an error, not a left-deep tree to recurse on" {
  python3 -c 'print("func.func private @f() attributes {x = affine_map<(d0, d1) -> (%s)>}" % " + ".join(["d0", "d1"] * 100000))' > "$T/long.mlir"
  refused "$T/long.mlir" "$T/long.mlir:1:*: error: expression nested too deeply" torch-opt torch-lower codegen
  python3 -c 'print("func.func private @f() attributes {x = affine_map<(d0) -> (%s)>}" % " * ".join(["d0"] + ["2"] * 200000))' > "$T/mul.mlir"
  refused "$T/mul.mlir" "$T/mul.mlir:1:*: error: expression nested too deeply" torch-opt
  python3 -c 'print("func.func private @f() attributes {x = affine_map<(d0) -> (%sd0)>}" % ("-" * 200000))' > "$T/neg.mlir"
  refused "$T/neg.mlir" "$T/neg.mlir:1:*: error: expression nested too deeply" torch-opt
  # constants fold: as long as that is one constant
  python3 -c 'print("func.func private @f() attributes {x = affine_map<(d0) -> (%s + d0)>}" % " + ".join(["1"] * 200000))' > "$T/const.mlir"
  run bin/torch-opt -p '' "$T/const.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"affine_map<(d0) -> (d0 + 200000)>"* ]]
}

@test "regions nested 50000 deep: an error at the region's brace" {
  nest 50000 $'"a.b"() ({\n' $'"a.c"() : () -> ()\n' $'}) : () -> ()\n' > "$T/reg.mlir"
  run --separate-stderr bin/torch-opt --allow-unregistered-dialect "$T/reg.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$T/reg.mlir:101:10: error: regions nested too deeply" ]
}

@test "aliases build no deeper nesting than the reader allows written out" {
  # !t1 = tuple<!t0> ... : !t255 is 256 levels, !t256 one too many
  awk 'BEGIN { print "!t0 = i32"; for (i = 1; i < 50000; i++) printf "!t%d = tuple<!t%d>\n", i, i - 1; print "func.func private @f() -> !t49999" }' > "$T/types.mlir"
  refused "$T/types.mlir" "$T/types.mlir:257:15: error: type nested too deeply" torch-opt torch-lower codegen
  awk 'BEGIN { print "#a0 = 1"; for (i = 1; i < 50000; i++) printf "#a%d = {a = [#a%d]}\n", i, i - 1; print "func.func private @f() attributes {x = #a49999}" }' > "$T/attrs.mlir"
  refused "$T/attrs.mlir" "$T/attrs.mlir:502:15: error: attribute nested too deeply" torch-opt torch-lower codegen
  awk 'BEGIN { print "#l0 = loc(\"a\")"; for (i = 1; i < 50000; i++) printf "#l%d = loc(callsite(#l%d at \"b\"))\n", i, i - 1; print "func.func private @f() loc(#l49999)" }' > "$T/locs.mlir"
  refused "$T/locs.mlir" "$T/locs.mlir:1001:1: error: location nested too deeply" torch-opt torch-lower codegen
  # used before they are defined, as mlir-opt prints them: the
  # definition that goes too deep is the error
  awk 'BEGIN { print "func.func private @f() loc(#l49999)"; print "#l0 = loc(\"a\")"; for (i = 1; i < 50000; i++) printf "#l%d = loc(callsite(\"b\" at #l%d))\n", i, i - 1 }' > "$T/fwd.mlir"
  refused "$T/fwd.mlir" "$T/fwd.mlir:1002:1: error: location nested too deeply" torch-opt
}

@test "a location alias that holds itself is an error, not endless recursion" {
  printf 'func.func private @f() loc(#l0)\n#l0 = loc(callsite(#l1 at "a"))\n#l1 = loc(callsite(#l0 at "b"))\n' > "$T/cycle.mlir"
  refused "$T/cycle.mlir" "$T/cycle.mlir:1:28: error: location nested too deeply" torch-opt torch-lower codegen
  printf 'func.func private @f() loc(#l0)\n#l0 = loc(fused[#l0, "a"])\n' > "$T/self.mlir"
  refused "$T/self.mlir" "$T/self.mlir:1:28: error: location nested too deeply" torch-opt
  # a location used many times is no cycle
  printf 'func.func private @f() loc(#l2)\n#l0 = loc("a":1:2)\n#l1 = loc(fused[#l0, #l0, #l0])\n#l2 = loc(callsite(#l1 at #l1))\n' > "$T/dag.mlir"
  run bin/torch-opt --print-debuginfo "$T/dag.mlir"
  [ "$status" -eq 0 ]
}

@test "nesting as deep as the reader allows prints and reads back" {
  echo "func.func private @f() -> $(nest 255 'tuple<' i32 '>')" > "$T/tuple.mlir"
  echo "func.func private @g($(nest 250 '!torch.list<' '!torch.optional<int>' '>')) attributes {x = $(nest 450 '{a = [' 1 ']}')}" > "$T/mix.mlir"
  for f in tuple mix; do
    bin/torch-opt -p '' "$T/$f.mlir" > "$T/$f.a.mlir"
    bin/torch-opt -p '' "$T/$f.a.mlir" > "$T/$f.b.mlir"
    cmp "$T/$f.a.mlir" "$T/$f.b.mlir"
  done
  grep -qF "$(nest 255 'tuple<' i32 '>')" "$T/tuple.a.mlir"
  grep -qF "$(nest 450 '{a = [' 1 ']}')" "$T/mix.a.mlir"
}

# a torch program adding a 4-float weight to itself; $1 is the blob
weights() {
  cat <<EOM
func.func @f() -> !torch.vtensor<[4],f32> {
  %0 = torch.vtensor.literal(dense_resource<w> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %int1 = torch.constant.int 1
  %1 = torch.aten.add.Tensor %0, %0, %int1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "$1"
    }
  }
#-}
EOM
}

@test "a weight blob shorter than its tensor type: an error naming it, in every IR tool" {
  weights 0x040000000000803F00000040 > "$T/short.mlir"
  refused "$T/short.mlir" "$T/short.mlir:2:45: error: dense_resource 'w' has 8 bytes, tensor<4xf32> needs 16" \
    torch-opt torch-lower codegen vmpack
  # folding it was an abort: "internal error: dense element 2 out of range"
  run --separate-stderr bin/torch-opt -p torch-fold-constants "$T/short.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"needs 16" ]]
  # decoded from a pipe as it arrives: the same
  FXPIPE_REPRO_DIR= run --separate-stderr bin/torch-opt < "$T/short.mlir"
  [ "$status" -eq 1 ]
  [ "$stderr" = "<stdin>:2:45: error: dense_resource 'w' has 8 bytes, tensor<4xf32> needs 16" ]
  # no bytes at all
  weights 0x04000000 > "$T/none.mlir"
  refused "$T/none.mlir" "$T/none.mlir:2:45: error: dense_resource 'w' has 0 bytes, tensor<4xf32> needs 16" \
    torch-opt
}

@test "a weight blob longer than its tensor type is read, as mlir-opt reads it" {
  weights 0x040000000000803F000000400000404000008040000000000000 > "$T/long.mlir"
  run bin/torch-opt -p torch-fold-constants "$T/long.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]>"* ]]
  weights 0x040000000000803F000000400000404000008040 > "$T/exact.mlir"
  run bin/torch-opt -p '' "$T/exact.mlir"
  [ "$status" -eq 0 ]
}

@test "empty input: torch-opt and torch-lower print an empty module" {
  : > "$T/empty.mlir"
  printf '// nothing but a comment\n' > "$T/comment.mlir"
  for f in empty comment; do
    for t in torch-opt torch-lower; do
      run --separate-stderr bin/$t "$T/$f.mlir"
      [ "$status" -eq 0 ]
      [ "$output" = $'module {\n}' ]
      [ -z "$stderr" ]
    done
  done
}

@test "empty input: codegen has no functions to compile, vmpack nothing to pack" {
  : > "$T/empty.mlir"
  printf '// nothing but a comment\n' > "$T/comment.mlir"
  printf 'module {\n}\n' > "$T/module.mlir"
  printf 'func.func private @decl(tensor<4xf32>) -> tensor<4xf32>\n' > "$T/decl.mlir"
  for f in empty comment module decl; do
    refused "$T/$f.mlir" "codegen: error: $T/$f.mlir: no functions to compile" codegen
  done
  refused "$T/empty.mlir" "vmpack: error: $T/empty.mlir: empty input" vmpack
  refused "$T/comment.mlir" "$T/comment.mlir:0:0: error: the module needs fxvm.target" vmpack
  run --separate-stderr bin/codegen < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "codegen: error: <stdin>: no functions to compile" ]
}

# quick FILE [OPTION]: torch-opt reads and prints FILE within 10 s (well
# under 1 s on an idle machine; minutes when it was quadratic)
quick() {
  local f="$1"
  shift
  run timeout 10 bin/torch-opt -p '' "$@" "$f" -o "$T/out.mlir"
  [ "$status" -eq 0 ] || { echo "status $status"; return 1; }
}

@test "100000 keys in one attribute dictionary: read and printed quickly" {
  python3 -c 'print("func.func private @f() attributes {%s}" % ", ".join("k%d = %d" % (i, i) for i in range(100000)))' > "$T/keys.mlir"
  quick "$T/keys.mlir"
  grep -q 'k99999 = 99999 : i64}$' "$T/out.mlir"
  python3 -c 'print("func.func private @f() attributes {x = {%s}}" % ", ".join("k%d = %d" % (i, i) for i in range(100000)))' > "$T/nested.mlir"
  quick "$T/nested.mlir"
  # the duplicate is still found, at its key
  python3 -c 'print("func.func private @f() attributes {%s, k7 = 0}" % ", ".join("k%d = %d" % (i, i) for i in range(100000)))' > "$T/dup.mlir"
  run --separate-stderr timeout 10 bin/torch-opt "$T/dup.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "$T/dup.mlir:1:"*": error: duplicate key 'k7' in dictionary attribute" ]]
}

@test "50000 functions: read, verified and printed quickly" {
  awk 'BEGIN { for (i = 0; i < 50000; i++) printf "func.func private @f%d()\n", i }' > "$T/funcs.mlir"
  quick "$T/funcs.mlir"
  [ "$(grep -c 'func.func private' "$T/out.mlir")" -eq 50000 ]
  # a redefinition is still found, against the first definition
  echo 'func.func private @f7()' >> "$T/funcs.mlir"
  run --separate-stderr timeout 10 bin/torch-opt "$T/funcs.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "$T/funcs.mlir:50001:1: error: redefinition of symbol named 'f7'"* ]]
  [[ "$stderr" == *"$T/funcs.mlir:8:1: note: see existing symbol definition here"* ]]
}

@test "100000 resources: read and printed quickly" {
  python3 -c '
n = 100000
print("func.func private @f() attributes {%s}" % ", ".join("a%d = dense_resource<r%d> : tensor<1xi32>" % (i, i) for i in range(n)))
print("{-#\n  dialect_resources: {\n    builtin: {\n%s\n    }\n  }\n#-}" % ",\n".join("      r%d: \"0x04000000%08X\"" % (i, i) for i in range(n)))' > "$T/res.mlir"
  quick "$T/res.mlir"
  grep -q 'r99999: "0x040000000001869F"' "$T/out.mlir"
}

@test "50000 blocks: read and printed quickly, predecessors and all" {
  awk 'BEGIN { print "\"a.r\"() ({"; for (i = 0; i < 50000; i++) printf "^bb%d:\n  \"a.br\"() [^bb%d, ^bb1] : () -> ()\n", i, i + 1; print "^bb50000:\n  \"a.end\"() : () -> ()\n}) : () -> ()" }' > "$T/blocks.mlir"
  quick "$T/blocks.mlir" --allow-unregistered-dialect
  grep -q '^  ^bb49999:  // pred: ^bb49998$' "$T/out.mlir"
  grep -q '^  ^bb50000:  // pred: ^bb49999$' "$T/out.mlir"
  grep -q '^  ^bb1:  // 50000 preds: ^bb0, ^bb1, ^bb2, ' "$T/out.mlir"
}
