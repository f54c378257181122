#!/usr/bin/env bats
# The backward family: elementwise backward ops of activations and softmax,
# prims ops (cases_bwd.py), against PyTorch.
load helpers

@test "activation backwards, f32, odd shape" { regress activation_backwards_f32_odd_shape; }
@test "activation backwards, f64, extents 1 and 0" { regress activation_backwards_f64_sizes_0_and_1; }
@test "activation backwards of strided views, in a fused chain" { regress activation_backwards_noncontiguous_chain; }
@test "threshold_backward of ints, mixed int/float" { regress threshold_backward_int_and_mixed; }
@test "rrelu_with_noise_backward, training and eval" { regress rrelu_with_noise_backward_train_eval; }
@test "_softmax_backward_data, _log_softmax_backward_data" { regress softmax_backward_data_dims; }
@test "softmax backwards in f64" { regress softmax_backward_data_f64; }
@test "prims view_of, squeeze, split_dim, sum, prod, convert_element_type" { regress prims_views_reductions_conversions; }
@test "prims.sum of int32 is refused (eager and the prim disagree)" { regress prims_sum_int32_refused; }
@test "rrelu_with_noise_backward, training, lower == upper: refused" { regress rrelu_backward_training_equal_bounds_refused; }

# The random ops (decompose_rng.c): statistics, not eager's values (rng_stats.py).
rng() {
  need_torch
  run "$PY" tests/diff/rng_stats.py run "$1"
  echo "$output"
  [ "$status" -eq 0 ]
}
@test "rng: Philox4x32-10 known answer" { rng philox_known_answer; }
@test "rng: rand f32/f64, two streams, neighbours, a second compile" { rng rand_f32_f64_two_streams; }
@test "rng: randn, normal, uniform, exponential statistics" { rng randn_normal_uniform_exponential; }
@test "rng: bernoulli, randint, native_dropout" { rng bernoulli_randint_dropout; }
@test "rng: multinomial with and without replacement" { rng multinomial_with_and_without_replacement; }
@test "rng: rrelu in training, slopes in [lower, upper)" { rng rrelu_training_slopes; }
