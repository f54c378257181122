#!/usr/bin/env bats
# Decompositions changed to torch-mlir's forms and those of decompose_lit.c
# (cases_lit.py), against PyTorch; two cases a test, one PyTorch start.
load helpers

@test "repeat_interleave (int32, int64, extents 1 and 0, strided); batch norm of bfloat16 in float" {
  regress repeat_interleave_forms batch_norm_bfloat16_computes_in_float
}
@test "matmul of equal 3-D batches as bmm (strided, batch 1, empty, f64, i64); argmax, argmin, mean, mish" {
  regress matmul_3d_equal_batches argmax_mean_mish_through_the_pipeline
}
