#!/usr/bin/env bats
# Python int/float/bool results (alone, several, nested beside tensors,
# constant or computed from shapes) through the whole pipe at both graph
# levels, against eager PyTorch: each comes back as a 0-d array of int64,
# float64 or bool, exactly (tests/e2e/scalar_results.py).

load helpers

scalars() {
  need_torch
  run "$PY" tests/e2e/scalar_results.py check "$1" "$2"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "scalar results: an int alone (numel), aten" { scalars int_alone aten; }
@test "scalar results: an int alone (numel), torch" { scalars int_alone torch; }
@test "scalar results: a float alone (no inputs), aten" { scalars float_alone aten; }
@test "scalar results: a float alone (no inputs), torch" { scalars float_alone torch; }
@test "scalar results: a bool alone (is_floating_point), aten" { scalars bool_alone aten; }
@test "scalar results: a bool alone (is_floating_point), torch" { scalars bool_alone torch; }
@test "scalar results: is_floating_point/is_complex of f64, i64, bool, aten" { scalars dtype_tests aten; }
@test "scalar results: is_floating_point/is_complex of f64, i64, bool, torch" { scalars dtype_tests torch; }
@test "scalar results: several (int, float, bool, negative int), aten" { scalars several aten; }
@test "scalar results: several (int, float, bool, negative int), torch" { scalars several torch; }
@test "scalar results: mixed with tensors in a tuple, dict and list, x.shape, aten" { scalars mixed aten; }
@test "scalar results: mixed with tensors in a tuple, dict and list, x.shape, torch" { scalars mixed torch; }
@test "scalar results: an empty input (numel 0, size 0, sum over 0 rows), aten" { scalars empty aten; }
@test "scalar results: an empty input (numel 0, size 0, sum over 0 rows), torch" { scalars empty torch; }
@test "scalar results: floats from sizes (size * 0.5, size / 2, numel / size), aten" { scalars float_from_sizes aten; }
@test "scalar results: floats from sizes (size * 0.5, size / 2, numel / size), torch" { scalars float_from_sizes torch; }
