#!/usr/bin/env bats
# Vision ops of issue 19 (cases_vision.py), against PyTorch.
load helpers

@test "upsample_bilinear2d: sizes, scale factors, align_corners" { regress upsample_bilinear2d_forms; }
@test "upsample_nearest2d: sizes, scale factors, uint8" { regress upsample_nearest2d_forms; }
@test "upsample 1-d and 3-d, linear and nearest" { regress upsample_1d_and_3d; }
@test "adaptive pools 1-d, 2-d, 3-d with overlapping windows" { regress adaptive_pools_overlapping; }
@test "group norm: group counts, no affine, ranks 2 to 4" { regress group_norm_forms; }
@test "resizing in f64 and bf16, and of a batch of 0" { regress resize_f64_bf16_and_empty_batch; }
@test "adaptive_max_pool3d with its indices" { regress adaptive_max_pool3d_indices; }
@test "max pooling indices of a window with several NaNs are the last NaN's" { regress max_pool_indices_last_nan; }
