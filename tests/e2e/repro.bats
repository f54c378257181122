#!/usr/bin/env bats
# Locations and reproducers (issue 23): in the README's pipe, with no extra
# flags, the stage that refuses an op names the model's Python line and
# the op, saves the input it read from the pipe and prints the one command
# that replays the failure.  Locations travel between the stages because
# each prints those its input gave when its output goes on to a pipe or a
# file (--no-debuginfo: none).

bats_require_minimum_version 1.5.0
load helpers

# a resnet-like model: a stem, four stages of two basic blocks, a head;
# the third stage's second block computes something torch-lower cannot
setup_file() {
  cat > "$BATS_FILE_TMPDIR/resnetish.py" <<'PY'
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, cin, cout, stride, odd=False):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        self.odd = odd

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        y = self.b2(self.c2(y))
        if self.odd:
            y = torch.special.i1e(y)
        return torch.relu(y + (x if self.down is None else self.down(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        chans = [8, 8, 16, 32, 32]
        self.stages = nn.Sequential(*[
            nn.Sequential(Block(chans[i], chans[i + 1], 1 if i == 0 else 2),
                          Block(chans[i + 1], chans[i + 1], 1, odd=(i == 2)))
            for i in range(4)])
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.stages(self.stem(x))
        return self.fc(torch.flatten(torch.mean(x, (2, 3), keepdim=True), 1))


def make_model():
    return Net().eval()


def make_plain():
    for m in (net := Net()).modules():
        m.odd = False
    return net.eval()
PY
}

setup() {
  T="$BATS_TEST_TMPDIR"
  export TMPDIR="$T"          # where a pipe's reproducers go by default
  unset FXPIPE_REPRO_DIR
}

# export_model [FACTORY]: $BATS_FILE_TMPDIR/FACTORY.json
export_model() {
  local f=${1:-make_model}
  need_torch
  [ -e "$BATS_FILE_TMPDIR/$f.json" ] ||
    (cd "$BATS_FILE_TMPDIR" && bin_fx_export resnetish.py:$f --input 1x3x32x32xf32 -o $f.json)
}

bin_fx_export() {
  PYTHON="$PY" "$BATS_TEST_DIRNAME/../../bin/fx-export" "$@"
}

# replay LINE ERROR: runs the command a note printed; its first line of
# errors must be ERROR (the same after "error: " when ERROR names a file)
replay() {
  local cmd="${1#*: note: reproduce with: }"
  [ "$cmd" != "$1" ] || { echo "not a note: $1"; false; }
  run --separate-stderr bash -c "$cmd"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  if [[ "$2" == "<stdin>"* || "$2" == /* ]]; then
    [ "${stderr_lines[0]#*error: }" = "${2#*error: }" ] || { echo "replayed: $stderr"; false; }
  else
    [ "${stderr_lines[0]}" = "$2" ] || { echo "replayed: $stderr"; false; }
  fi
}

@test "an op torch-opt refuses deep in the model: its .py line and the op, and a reproducer" {
  export_model
  line=$(grep -n 'special.i1e' "$BATS_FILE_TMPDIR/resnetish.py" | cut -d: -f1)
  run --separate-stderr bash -c "bin/fx-import '$BATS_FILE_TMPDIR/make_model.json' | bin/torch-opt | bin/torch-lower | bin/codegen --target=cpu | bin/vmpack -o '$T/m.vmfb'"
  [ "$status" -ne 0 ]
  [ ! -e "$T/m.vmfb" ]
  want="resnetish.py:$line:13: error: 'aten.special_i1e' is not supported by the backend contract (found an op that was marked as backend illegal)"
  [ "${stderr_lines[0]}" = "$want" ] || { echo "$stderr"; false; }
  [[ "${stderr_lines[1]}" == "torch-opt: note: reproduce with: bin/torch-opt $T/fxpipe-repro."*/torch-opt.mlir ]]
  # the saved input is fx-import's output byte for byte (its weights
  # came through the pipe as hex and were decoded on the way in)
  bin/fx-import "$BATS_FILE_TMPDIR/make_model.json" > "$T/imported.mlir"
  cmp "$T"/fxpipe-repro.*/torch-opt.mlir "$T/imported.mlir"
  # the stages after it saw an empty module: no reproducer of their own
  [ "$(grep -c 'note: reproduce' <<< "$stderr")" = 1 ] || { echo "$stderr"; false; }
  replay "${stderr_lines[1]}" "$want"
}

@test "an op torch-lower refuses: the model's line comes through torch-opt's output" {
  export_model make_plain
  # torch-opt's output, relu made sinh (which torch-lower has no lowering
  # for) where the first line of Block.forward computed it
  line=$(grep -n 'y = torch.relu' "$BATS_FILE_TMPDIR/resnetish.py" | cut -d: -f1)
  run --separate-stderr bash -c "bin/fx-import '$BATS_FILE_TMPDIR/make_plain.json' | bin/torch-opt |
    sed '/resnetish.py\":$line:/s/torch.aten.relu /torch.aten.sinh /' | bin/torch-lower | bin/codegen --target=cpu | bin/vmpack -o '$T/m.vmfb'"
  [ "$status" -ne 0 ]
  [ ! -e "$T/m.vmfb" ]
  want="resnetish.py:$line:9: error: torch-lower: no lowering for 'torch.aten.sinh'"
  [ "${stderr_lines[0]}" = "$want" ] || { echo "$stderr"; false; }
  [[ "${stderr_lines[1]}" == "torch-lower: note: reproduce with: bin/torch-lower $T/fxpipe-repro."*/torch-lower.mlir ]]
  # the stages after it saw an empty input: no reproducer of their own
  [ "$(grep -c 'note: reproduce' <<< "$stderr")" = 1 ] || { echo "$stderr"; false; }
  replay "${stderr_lines[1]}" "$want"
}

@test "--no-debuginfo: torch-opt prints no locations, and torch-lower's error points into its input" {
  export_model make_plain
  run --separate-stderr bash -c "bin/fx-import '$BATS_FILE_TMPDIR/make_plain.json' | bin/torch-opt --no-debuginfo | tee '$T/opt.mlir' |
    sed 's/torch.aten.relu /torch.aten.sinh /' | bin/torch-lower"
  [ "$status" -ne 0 ]
  ! grep -q 'loc(' "$T/opt.mlir"
  [[ "${stderr_lines[0]}" == "<stdin>:"*": error: torch-lower: no lowering for 'torch.aten.sinh'" ]]
}

@test "locations: a pipe or -o FILE gets those the input gave; an input without any prints none" {
  bin/torch-opt tests/fx-import/inputs/../../../examples/linear-torch.mlir > "$T/a.mlir"
  ! grep -q 'loc(' "$T/a.mlir"
  bin/fx-import tests/fx-import/inputs/mlp-torch.json > "$T/m.mlir"
  grep -q 'loc("' "$T/m.mlir"
  bin/torch-opt "$T/m.mlir" | grep -q 'loc("'
  bin/torch-opt "$T/m.mlir" -o "$T/o.mlir"
  grep -q 'loc("' "$T/o.mlir"
  bin/torch-lower "$T/o.mlir" | grep -q 'linalg.*loc("'
  bin/torch-lower "$T/o.mlir" | bin/codegen --target=cpu | grep -q 'loc("'
  # --no-debuginfo at every stage
  ! bin/torch-opt --no-debuginfo "$T/m.mlir" | grep -q 'loc('
  ! bin/torch-lower --no-debuginfo "$T/o.mlir" | grep -q 'loc('
  ! bin/torch-lower "$T/o.mlir" | bin/codegen --target=cpu --no-debuginfo | grep -q 'loc('
  # what is printed reads back, and mlir-opt-16 reads torch-lower's
  bin/torch-opt -p '' "$T/o.mlir" > /dev/null
  if command -v mlir-opt-16 > /dev/null; then
    bin/torch-lower "$T/o.mlir" | mlir-opt-16 > /dev/null
  fi
}

@test "a crash saves the input too, and says it was one" {
  FX_TEST_CRASH_AFTER_READ=1 run --separate-stderr bash -c "bin/torch-lower < examples/linear-torch.mlir"
  if [ "${SANITIZE:-0}" = 1 ]; then
    # AddressSanitizer reports the crash itself; the note follows
    [ "$status" -ne 0 ]
    [[ "$stderr" == *"AddressSanitizer"* ]]
    [[ "${stderr_lines[-1]}" == "torch-lower: note: reproduce with: bin/torch-lower $T/fxpipe-repro."*/torch-lower.mlir ]]
  else
    [ "$status" -eq 139 ]
    [ "${stderr_lines[0]}" = "torch-lower: internal error: segmentation fault (a bug: please report it with the reproducer)" ]
    [[ "${stderr_lines[1]}" == "torch-lower: note: reproduce with: bin/torch-lower $T/fxpipe-repro."*/torch-lower.mlir ]]
  fi
  cmp "$T"/fxpipe-repro.*/torch-lower.mlir examples/linear-torch.mlir
}

@test "--reproducer=FILE and FXPIPE_REPRO_DIR save a named input too; FXPIPE_REPRO_DIR= saves none" {
  printf 'func.func @f() {\n  %%0 = torch.nothing\n}\n' > "$T/bad.mlir"
  for tool in torch-opt torch-lower codegen vmpack; do
    run --separate-stderr bin/$tool --reproducer="$T/r-$tool.mlir" "$T/bad.mlir"
    [ "$status" -eq 1 ]
    [ "${stderr_lines[1]}" = "$tool: note: reproduce with: bin/$tool $T/r-$tool.mlir" ] || { echo "$stderr"; false; }
    cmp "$T/r-$tool.mlir" "$T/bad.mlir"
  done
  # a named input alone: the command that failed replays it, no copy
  run --separate-stderr bin/torch-opt "$T/bad.mlir"
  [ "${#stderr_lines[@]}" -eq 1 ]
  mkdir "$T/dir"
  FXPIPE_REPRO_DIR="$T/dir" run --separate-stderr bin/torch-opt -p canonicalize "$T/bad.mlir"
  [[ "${stderr_lines[1]}" == "torch-opt: note: reproduce with: bin/torch-opt -p canonicalize $T/dir/torch-opt-"*.mlir ]]
  replay "${stderr_lines[1]}" "${stderr_lines[0]}"
  FXPIPE_REPRO_DIR= run --separate-stderr bash -c "bin/torch-opt < '$T/bad.mlir'"
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  ! ls "$T" | grep -q fxpipe-repro
}

@test "arguments with spaces and quotes are quoted in the command" {
  printf 'func.func @f() {\n  %%0 = torch.nothing\n}\n' > "$T/bad.mlir"
  run --separate-stderr bash -c "bin/torch-opt -p \"canonicalize, cse\" < '$T/bad.mlir'"
  [[ "${stderr_lines[1]}" == "torch-opt: note: reproduce with: bin/torch-opt -p 'canonicalize, cse' $T/fxpipe-repro."* ]]
  replay "${stderr_lines[1]}" "${stderr_lines[0]}"
}
