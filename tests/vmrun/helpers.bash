# Shared setup for the vmrun and vmpack tests.  Run from the repository
# root with bin/ built: bats tests/vmrun
IN=tests/vmrun/inputs
FLAVORS="gcc-nopic gcc-pic gcc-relax llc16"

setup() {
  T="$BATS_TEST_TMPDIR"
}

# pack NAME: tests/vmrun/inputs/NAME.mlir -> $T/NAME.vmfb
pack() {
  bin/vmpack "$IN/$1.mlir" -o "$T/$1.vmfb"
}

# pack_refuses SED INPUT MESSAGE: INPUT edited by the sed script does not
# pack; the first error line ends with MESSAGE
pack_refuses() {
  sed "$1" "$2" > "$T/refused.mlir"
  run bin/vmpack "$T/refused.mlir" -o "$T/refused.vmfb"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == *"$3" ]]
}

# byte_at FILE OFFSET: the byte's value, decimal
byte_at() {
  od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '
}

# flip FILE OFFSET: inverts every bit of one byte in place
flip() {
  local b
  b=$(byte_at "$1" "$2")
  printf "\\$(printf '%03o' $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# put_u32 FILE OFFSET VALUE: writes a little-endian u32
put_u32() {
  local v=$3
  printf "\\$(printf '%03o' $((v & 255)))\\$(printf '%03o' $((v >> 8 & 255)))\\$(printf '%03o' $((v >> 16 & 255)))\\$(printf '%03o' $((v >> 24 & 255)))" |
    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
