#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Text read from a pipe has its resource blobs decoded as they arrive
# (lib/textin.c): whatever the read sizes, it must parse, print and fail
# exactly as the same text read from a file, errors at the same LINE:COL.

setup() {
  T="$BATS_TEST_TMPDIR"
}

# same FILE: stdout, stderr and status through a file and through a pipe
# read 1, 2, 3, 7, 4096 and 1 MB bytes at a time
same() {
  local f="$1" chunk
  bin/torch-opt -p '' "$f" > "$T/want.out" 2> "$T/want.err"
  echo $? > "$T/want.st"
  sed "s|$f|<stdin>|" "$T/want.err" > "$T/want.err2"
  for chunk in 1 2 3 7 4096 0; do
    FX_TEST_READ_CHUNK=$chunk FXPIPE_REPRO_DIR= bin/torch-opt -p '' < <(cat "$f") > "$T/got.out" 2> "$T/got.err"
    echo $? > "$T/got.st"
    diff "$T/want.st" "$T/got.st" || { echo "status, chunk $chunk"; return 1; }
    diff "$T/want.out" "$T/got.out" || { echo "stdout, chunk $chunk"; return 1; }
    diff "$T/want.err2" "$T/got.err" || { echo "stderr, chunk $chunk"; return 1; }
  done
}

# a module using the resources a, b, c; $1 is the section's text
module() {
  cat <<EOM
func.func private @f() attributes {a = dense_resource<a> : tensor<2xi32>, b = dense_resource<b> : tensor<4xi8>, c = dense_resource<c> : tensor<1xi16>}
$1
EOM
}

@test "blobs from a pipe print as from a file" {
  module '{-#
  // a comment: "0x00"
  dialect_resources: {
    builtin: {
      a: "0x040000000100000002000000",
      "b": "0x01000000aabbccdd", c: "0x020000007FFF"
    }
  }
#-}' > "$T/m.mlir"
  same "$T/m.mlir"
  grep -q 'a: "0x040000000100000002000000"' "$T/want.out"
  grep -q 'b: "0x01000000AABBCCDD"' "$T/want.out"
}

@test "a blob bigger than a read prints as from a file" {
  python3 -c '
import random
r = random.Random(7)
h = "".join("%02X" % r.randrange(256) for _ in range(3 << 19))
print("func.func private @f() attributes {a = dense_resource<big> : tensor<393216xi32>}")
print("{-#\n  dialect_resources: {\n    builtin: {\n      big: \"0x40000000%s\",\n      small: \"0x0400000001000000\"\n    }\n  }\n#-}" % h)
' > "$T/m.mlir"
  bin/torch-opt -p '' "$T/m.mlir" > "$T/a.out"
  bin/torch-opt -p '' < <(cat "$T/m.mlir") > "$T/b.out"
  cmp "$T/a.out" "$T/b.out"
  FX_TEST_READ_CHUNK=4093 bin/torch-opt -p '' < <(cat "$T/m.mlir") > "$T/c.out"
  cmp "$T/a.out" "$T/c.out"
  grep -q 'big: "0x40000000' "$T/a.out"
}

@test "bad blobs from a pipe fail as from a file, at the same place" {
  local bad=(
    'a: "0x0400000001000000020000"' # fine: too short for the type, later
    'a: "0x04000000010000000200000"' # odd digits
    'a: "0x0400000001000000020000G0"' # not a digit
    'a: "0x040000000100\n000002000000"' # a newline in the string
    'a: "0x040000000100\\30000002000000"' # an escape
    'a: "0x0400"' # shorter than its alignment
    'a: "0x"' # no digits
    'a: "0y0400000001000000"' # not hex
    'a: "0x040000000100000002000000" junk' # after the blob on its line
    'a: "0x040000000100000002000000", b: "0x01000000aabbccdd" }}, c: 1' # after two
    'a: "0x040000000100000002000000' # no closing quote at the end
  )
  local s
  for s in "${bad[@]}"; do
    module "{-#
  dialect_resources: { builtin: {
      $(printf "$s")
  } }
#-}" > "$T/m.mlir"
    same "$T/m.mlir" || { echo "case: $s"; cat "$T/want.err"; return 1; }
    [ "$(cat "$T/want.st")" -ne 0 ] || { echo "case passed: $s"; return 1; }
  done
}

@test "keys with no blob in the section read as from a file, as handles without data" {
  module '{-#
  dialect_resources: { builtin: {
      a: "0x040000000100000002000000"
  } }
#-}' > "$T/m.mlir"
  same "$T/m.mlir"
  [ "$(cat "$T/want.st")" -eq 0 ]
  grep -q 'b = dense_resource<b> : tensor<4xi8>' "$T/want.out"
  grep -q 'a: "0x04000000' "$T/want.out"
  ! grep -q ' b: "' "$T/want.out"
}

@test "a section that does not start a line, or none, reads as from a file" {
  module '' > "$T/m.mlir"
  echo '{-# dialect_resources: { builtin: { a: "0x040000000100000002000000", b: "0x01000000aabbccdd", c: "0x020000007FFF" } } #-}' >> "$T/m.mlir"
  same "$T/m.mlir"
  module '  {-# dialect_resources: { builtin: { a: "0x040000000100000002000000", b: "0x01000000aabbccdd", c: "0x020000007FFF" } } #-}' > "$T/n.mlir"
  same "$T/n.mlir"
  printf '{-#\n dialect_resources: { builtin: { a: "0x0400000001000000" } },\n external_resources: { x: { y: "0x00" } }\n#-}\nfunc.func private @f() attributes {a = dense_resource<a> : tensor<1xi32>}\n' > "$T/o.mlir"
  same "$T/o.mlir"
  grep -q 'a: "0x0400000001000000"' "$T/want.out"
  echo 'func.func private @g()' > "$T/p.mlir"
  same "$T/p.mlir"
}

@test "--split-input-file reads the blobs of its chunks from a pipe" {
  { module '{-#
  dialect_resources: { builtin: { a: "0x040000000100000002000000", b: "0x01000000aabbccdd", c: "0x020000007FFF" } }
#-}'; echo '// -----'; module '{-#
  dialect_resources: { builtin: { a: "0x040000000300000004000000", b: "0x0100000011223344", c: "0x020000000100" } }
#-}'; } > "$T/m.mlir"
  bin/torch-opt -p '' --split-input-file "$T/m.mlir" > "$T/a.out"
  bin/torch-opt -p '' --split-input-file < <(cat "$T/m.mlir") > "$T/b.out"
  cmp "$T/a.out" "$T/b.out"
  grep -q 'a: "0x040000000300000004000000"' "$T/b.out"
}

# A weight of 3 MB (whole 2 MB pages to give back) that a matmul reads and
# the function also returns: through the pipe of torch-opt, torch-lower
# and codegen (which packs it for the matmul and keeps it as it is for the
# result), each stage giving pages back as it writes, the output must be
# the same as stage by stage through files.
@test "weights given back as they are written stay right until the last reader" {
  python3 -c '
import random, struct
r = random.Random(3)
w = b"".join(struct.pack("<f", r.uniform(-1, 1)) for _ in range(1024 * 768))
print("func.func @f(%x: !torch.vtensor<[1,1024],f32>) -> (!torch.vtensor<[1,768],f32>, !torch.vtensor<[1024,768],f32>) {")
print("  %w = torch.vtensor.literal(dense_resource<w> : tensor<1024x768xf32>) : !torch.vtensor<[1024,768],f32>")
print("  %0 = torch.aten.mm %x, %w : !torch.vtensor<[1,1024],f32>, !torch.vtensor<[1024,768],f32> -> !torch.vtensor<[1,768],f32>")
print("  return %0, %w : !torch.vtensor<[1,768],f32>, !torch.vtensor<[1024,768],f32>")
print("}")
print("{-#\n  dialect_resources: {\n    builtin: {\n      w: \"0x04000000%s\"\n    }\n  }\n#-}" % w.hex().upper())
' > "$T/m.mlir"
  bin/torch-opt "$T/m.mlir" -o "$T/a.mlir"
  bin/torch-lower "$T/a.mlir" -o "$T/b.mlir"
  bin/codegen "$T/b.mlir" -o "$T/c.fxvm"
  bin/torch-opt < <(cat "$T/m.mlir") | bin/torch-lower | bin/codegen > "$T/d.fxvm"
  cmp "$T/c.fxvm" "$T/d.fxvm"
  grep -q 'dense_resource<w>' "$T/d.fxvm"
  grep -q '_packed_b' "$T/d.fxvm"
}
