#!/usr/bin/env bats
# C unit tests of lib/, built against the same library as the tools.

@test "lib unit tests" {
  run "${BUILD:-build/opt}/tests/test_ir"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "ok" ]
}
