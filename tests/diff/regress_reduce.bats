#!/usr/bin/env bats
# Reductions that once gave wrong results (cases_reduce.py), against PyTorch.
load helpers

@test "sum over a size-1 dim initialises its accumulator" { regress sum_dim0_of_1x4; }
@test "an f32 cumsum accumulates like eager (in f64), so a sum that cancels is 0 (fuzz-diff)" { regress cumsum_that_cancels_to_zero; }
@test "a float product keeps its row order: 0 before overflow stays 0 (fuzz-diff)" { regress prod_that_reaches_zero_before_it_overflows; }
@test "an f16/bf16 (log_)softmax is computed in f32 and rounded once, as eager does (fuzz-diff)" { regress bf16_log_softmax_rounds_once; }
