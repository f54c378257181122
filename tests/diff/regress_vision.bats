#!/usr/bin/env bats
# Vision ops of issue 19 (cases_vision.py), against PyTorch.
load helpers

@test "upsample_bilinear2d: sizes, scale factors, align_corners" { regress upsample_bilinear2d_forms; }
@test "upsample_nearest2d: sizes, scale factors, uint8" { regress upsample_nearest2d_forms; }
@test "upsample 1-d and 3-d, linear and nearest" { regress upsample_1d_and_3d; }
@test "adaptive pools 1-d, 2-d, 3-d with overlapping windows" { regress adaptive_pools_overlapping; }
@test "group norm: group counts, no affine, ranks 2 to 4" { regress group_norm_forms; }
