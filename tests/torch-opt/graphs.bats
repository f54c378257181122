#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Pictures and timelines (issue 23): torch-opt -p view-op-graph and
# codegen --dump-dispatch-graph write Graphviz DOT, checked here by its
# text and, where graphviz is installed, by `dot -Tsvg`; --trace=FILE of
# the compile stages, one file shared by a whole pipe.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  T="$BATS_TEST_TMPDIR"
  J=tests/fx-import/inputs/mlp-torch.json
}

# The DOT in $1 renders, where graphviz's dot is installed.
renders() {
  if ! command -v dot >/dev/null; then
    echo "# dot (graphviz) is not installed: not rendering $1" >&3
    return 0
  fi
  dot -Tsvg "$1" > "$T/out.svg"
  grep -q '<svg' "$T/out.svg"
}

@test "-p view-op-graph writes the ops as DOT on stderr and the module unchanged on stdout" {
  run --separate-stderr bin/torch-opt -p view-op-graph "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [ "$output" = "$(bin/torch-opt -p '' "$IN/linear-torch.mlir")" ]
  printf '%s\n' "$stderr" > "$T/g.dot"
  [[ "$stderr" == "digraph G {"*"}" ]]
  [[ "$stderr" == *"subgraph cluster_"*'label = "func.func : ()'* ]]
  [[ "$stderr" == *'label = "arg0", shape = ellipse'* ]]
  [[ "$stderr" == *'[label = "torch.aten.mm : (!torch.vtensor<[1,3]...)", shape = ellipse]'* ]]
  # an edge per operand, numbered when the op has several
  grep -Eq '^  v[0-9]+ -> v[0-9]+ \[label = "1", style = solid\];$' "$T/g.dot"
  renders "$T/g.dot"
  # the flag form, and the same graph
  run --separate-stderr bin/torch-opt --view-op-graph "$IN/linear-torch.mlir"
  [ "$stderr" = "$(cat "$T/g.dot")" ]
}

@test "view-op-graph takes mlir-opt's options and elides big literals" {
  printf 'func.func @f() -> tensor<17xf32> {\n  %%0 = arith.constant dense<%s> : tensor<17xf32>\n  return %%0 : tensor<17xf32>\n}\n' \
    "[$(seq -f '%g.0' -s ', ' 1 17)]" > "$T/big.mlir"
  run --separate-stderr bin/torch-opt -p 'view-op-graph{max-label-len=0}' "$T/big.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *'value: dense_resource<__elided__> : tensor<17xf32>'* ]]
  [[ "$stderr" != *'1.700000e+01'* ]]
  run --separate-stderr bin/torch-opt -p 'view-op-graph{print-attrs=0 print-result-types=false}' "$IN/linear-torch.mlir"
  [[ "$stderr" == *'[label = "torch.aten.mm", shape = ellipse]'* ]]
  [[ "$stderr" != *'value:'* ]]
  run --separate-stderr bin/torch-opt -p 'view-op-graph{print-data-flow-edges=0}' "$IN/linear-torch.mlir"
  [[ "$stderr" != *' -> '* ]]
  run --separate-stderr bin/torch-opt -p 'view-op-graph{max-label-len=40}' "$IN/linear-torch.mlir"
  [[ "$stderr" == *'[label = "torch.aten.mm : (!torch.vtensor<[1,3],f32>)"'* ]]
  run --separate-stderr bin/torch-opt -p 'view-op-graph{colour=1}' "$IN/linear-torch.mlir"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"pass 'view-op-graph' has no option 'colour'"* ]]
}

@test "view-op-graph draws control-flow edges on request" {
  cat > "$T/cf.mlir" <<'IR'
"a.r"() ({
^bb0(%c: i1):
  "a.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  "a.end"() : () -> ()
^bb2:
  "a.end"(%c) : (i1) -> ()
}) : () -> ()
IR
  run --separate-stderr bin/torch-opt --allow-unregistered-dialect -p 'view-op-graph{print-control-flow-edges=1}' "$T/cf.mlir"
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "$stderr" | grep -c 'style = dashed')" -eq 2 ]
  printf '%s\n' "$stderr" > "$T/cf.dot"
  renders "$T/cf.dot"
  run --separate-stderr bin/torch-opt --allow-unregistered-dialect -p view-op-graph "$T/cf.mlir"
  [[ "$stderr" != *dashed* ]]
}

@test "codegen --dump-dispatch-graph: dispatches, their buffers and sizes, as DOT, and compiles as usual" {
  bin/fx-import "$J" | bin/torch-opt | bin/torch-lower > "$T/l.mlir"
  bin/codegen "$T/l.mlir" --dump-dispatch-graph="$T/d.dot" > "$T/with.mlir"
  bin/codegen "$T/l.mlir" > "$T/without.mlir"
  cmp "$T/with.mlir" "$T/without.mlir"
  run cat "$T/d.dot"
  [[ "$output" == "digraph G {"*"}" ]]
  [[ "$output" == *'subgraph cluster_f0 {'*'label = "main";'* ]]
  # each dispatch named as --dump-dispatches names it, with bytes and FLOPs
  bin/codegen --dump-dispatches "$T/l.mlir" > "$T/dd.txt"
  [ "$(grep -c 'shape = box' "$T/d.dot")" -eq "$(grep -c '^dispatch_' "$T/dd.txt")" ]
  [[ "$output" == *'f0_d0 [shape = box, label = "dispatch_0_matmul_add_clamp@models.py:36\n2.6 kB, 2.2 kFLOP"];'* ]]
  # the buffer between two dispatches, the argument, a constant, the result
  [[ "$output" == *'f0_d0 -> f0_d1 [label = "tensor<2x32xf32>\n256 B"];'* ]]
  [[ "$output" == *'f0_arg0 -> f0_d0 [label = "tensor<2x16xf32>\n128 B"];'* ]]
  [[ "$output" == *'f0_c2 [shape = note, label = "arith.constant\ntensor<16x32xf32>"];'* ]]
  [[ "$output" == *'f0_d2 -> f0_ret [label = "tensor<2x8xf32>\n64 B\nresult 0"];'* ]]
  renders "$T/d.dot"
  # the same again: node names do not depend on addresses
  bin/codegen "$T/l.mlir" --dump-dispatch-graph="$T/d2.dot" > /dev/null
  cmp "$T/d.dot" "$T/d2.dot"
  # standard output is the module's
  run bin/codegen --dump-dispatch-graph=- "$T/l.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"--dump-dispatch-graph: needs a file name"* ]]
  # a failing compile leaves no graph
  run bin/codegen --dump-dispatch-graph="$T/bad.dot" "$BATS_TEST_DIRNAME/../codegen/inputs/unsupported.mlir"
  [ "$status" -eq 1 ]
  [ ! -e "$T/bad.dot" ]
}

@test "--trace=FILE: a pipe of four stages appends to one file that Perfetto reads" {
  tr="$T/t.json"
  bin/fx-import --trace="$tr" "$J" | bin/torch-opt --trace="$tr" | bin/torch-lower --trace="$tr" \
    | bin/codegen --trace="$tr" > "$T/m.mlir"
  bin/torch-opt -p '' "$T/m.mlir" > /dev/null
  head -1 "$tr" | grep -qx '\['
  # one event a line, each a JSON object and a comma
  [ "$(sed 1d "$tr" | grep -vc '^{.*},$')" -eq 0 ]
  /usr/bin/python3 - "$tr" <<'PY'
import json, sys
text = open(sys.argv[1]).read().rstrip()
# the open array, as Perfetto takes it: drop the last comma, close it
ev = json.loads(text.rstrip(",") + "]")
names = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
assert sorted(names.values()) == ["codegen", "fx-import", "torch-lower", "torch-opt"], names
assert len(set(names)) == 4
spans = [e for e in ev if e["ph"] == "X"]
for e in spans:
    assert e["pid"] in names and e["tid"] == e["pid"], e
    assert e["dur"] >= 0 and e["ts"] > 0, e
def of(tool, cat):
    return [e["name"] for e in spans if names[e["pid"]] == tool and e["cat"] == cat]
for tool in names.values():
    assert of(tool, "tool") == [tool], (tool, of(tool, "tool"))
assert "torch-refine-types" in of("torch-opt", "pass")
assert "canonicalize" in of("torch-opt", "pass")
assert of("torch-opt", "pipeline") == ["func.func @main", "builtin.module"], of("torch-opt", "pipeline")
assert of("torch-lower", "phase") == ["Parser", "Verifier", "torch-lower", "Verifier", "Output"]
assert "read and parse" in of("codegen", "phase") and "host program" in of("codegen", "phase")
# the passes nest in their pipeline, in time
mod = [e for e in spans if e["name"] == "builtin.module"][0]
for e in spans:
    if e["cat"] == "pass":
        assert mod["ts"] <= e["ts"] and e["ts"] + e["dur"] <= mod["ts"] + mod["dur"] + 1
PY
  # a later run appends to it
  n=$(wc -l < "$tr")
  bin/torch-opt --trace="$tr" -p cse "$IN/linear-torch.mlir" > /dev/null
  [ "$(wc -l < "$tr")" -gt "$n" ]
  [ "$(grep -c '^\[' "$tr")" -eq 1 ]
}

@test "--trace needs a file name it can write" {
  for tool in torch-opt torch-lower codegen; do
    run bin/$tool --trace= "$IN/linear-torch.mlir"
    [ "$status" -eq 1 ]
    [[ "$output" == *"--trace: needs a file name"* ]]
    run bin/$tool --trace="$T/no/such/dir/t.json" "$IN/linear-torch.mlir"
    [ "$status" -eq 1 ]
    [[ "$output" == *"--trace: cannot write"* ]]
  done
}

@test "--trace: processes that start at once on a new file give one '[' and whole lines" {
  tr="$T/race.json"
  pids=
  for i in 1 2 3 4 5 6; do
    bin/torch-opt --trace="$tr" -p canonicalize,cse "$IN/linear-torch.mlir" > /dev/null &
    pids="$pids $!"
  done
  for p in $pids; do wait "$p"; done
  [ "$(head -1 "$tr")" = "[" ]
  [ "$(grep -c '^\[' "$tr")" -eq 1 ]
  [ "$(sed 1d "$tr" | grep -vc '^{.*},$')" -eq 0 ]
  [ "$(grep -c '"process_name"' "$tr")" -eq 6 ]
  ! ls "$T" | grep -q '\.tmp$'
}
