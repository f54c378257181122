#!/usr/bin/env bats
# Reductions that once gave wrong results (cases_reduce.py), against PyTorch.
load helpers

@test "sum over a size-1 dim initialises its accumulator" { regress sum_dim0_of_1x4; }
