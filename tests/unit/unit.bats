#!/usr/bin/env bats
# C unit tests of lib/, built against the same library as the tools.

@test "lib unit tests" {
  run "${BUILD:-build/opt}/tests/test_ir"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "ok" ]
}

@test "side tables name declared ops only" {
  run "${BUILD:-build/opt}/tests/test_optable"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "ok" ]
}
