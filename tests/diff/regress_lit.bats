#!/usr/bin/env bats
# Decompositions changed to torch-mlir's forms and those of decompose_lit.c
# (cases_lit.py), against PyTorch.
load helpers

@test "repeat_interleave: int32 and int64 repeats, extents 1 and 0, a dim of a strided input" { regress repeat_interleave_forms; }
@test "matmul of equal 3-D batches as bmm: odd extents, strided, batch 1, empty inner, f64, i64" { regress matmul_3d_equal_batches; }
@test "argmax, argmin, mean, mish through the pipeline: ties, NaN, f16" { regress argmax_mean_mish_through_the_pipeline; }
@test "batch norm of bfloat16 in float: ranks 2 to 4, strided, no affine, empty batch" { regress batch_norm_bfloat16_computes_in_float; }
