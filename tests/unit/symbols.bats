#!/usr/bin/env bats
# One definition of each global symbol per tool (tests/unit/symbols.sh).

@test "no symbol is defined twice in a tool's objects and libfx.a" {
  run sh tests/unit/symbols.sh
  echo "$output"
  [ "$status" -eq 0 ]
}
