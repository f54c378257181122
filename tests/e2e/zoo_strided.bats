#!/usr/bin/env bats
# Model zoo, strided-view family (issue 19): tests/e2e/zoo_strided.py's
# models through the whole pipe against PyTorch eager.  Both trace an
# aten.as_strided (adaptive_avg_pool2d to 1x1 on a channels-last tensor
# restrides its mean); swin_t also has roll, pad and the window views.

load helpers

@test "model convnext_tiny (64x64) matches PyTorch" { model convnext_tiny vision; }
@test "model swin_t (64x64: windows padded, shifted) matches PyTorch" { model swin_t vision; }
