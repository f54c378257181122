#!/usr/bin/env bats
# Strided views (issue 19): as_strided and as_strided_scatter over value
# tensors (cases_strided.py), against PyTorch.
load helpers

@test "as_strided with row-major strides in any order, an offset, size-1 and stride-0 dims is a view chain" { regress as_strided_view_chain; }
@test "as_strided transposed, skipping, in overlapping windows" { regress as_strided_gather; }
@test "as_strided to empty and one-element results" { regress as_strided_empty_and_one; }
@test "as_strided of int32 and bool tensors" { regress as_strided_int_and_bool; }
@test "as_strided between elementwise ops and a reduction" { regress as_strided_in_a_chain; }
@test "adaptive_avg_pool2d to 1x1 of a channels-last tensor (its as_strided)" { regress as_strided_of_channels_last_pool; }
@test "as_strided_scatter, strided and row-major" { regress as_strided_scatter_forms; }
@test "as_strided past its operand's elements reads its base's storage" { regress as_strided_past_its_operand; }
@test "as_strided of a transpose reads its base's storage" { regress as_strided_of_a_transpose; }
@test "as_strided with an offset into a view's storage" { regress as_strided_offset_into_a_view; }
@test "as_strided_scatter with overlapping elements is refused" { regress as_strided_scatter_overlap; }
@test "as_strided_ in place, at aten and torch level" { regress as_strided_in_place; regress as_strided_in_place_torch_graph; }
@test "as_strided of a product that kept a transposed layout is refused" { regress as_strided_of_a_transposed_product; regress as_strided_of_a_transposed_product_torch_graph; }
@test "as_strided_ in place on a transposed layout is refused (torch level)" { regress as_strided_in_place_of_a_transposed_product; }
@test "as_strided_copy: permuted, overlapping, broadcast" { regress as_strided_copy_forms; }
@test "as_strided of a weight" { regress as_strided_of_a_weight; }
