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

@test "the runtime's thread pool runs every workgroup once, its own range first, the rest shared" {
  run "${BUILD:-build/opt}/tests/test_pool"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "ok" ]
}

@test "crc32c: hardware and table agree with the bit-at-a-time reference, pieces combine" {
  run "${BUILD:-build/opt}/tests/test_crc"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "ok" ]
}
