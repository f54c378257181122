#!/usr/bin/env bats
# as_strided of views (torch-mlir's AtenAsStridedAfter* tests): read in
# the base's storage from the view's own offset (cases_strd.py), against
# PyTorch.
load helpers

@test "as_strided of permute, transpose, t, movedim, .T" { regress as_strided_of_permuted_views; }
@test "as_strided of slices (steps, negative starts, narrow) with and without an offset" { regress as_strided_of_slices_inherits_their_offset; }
@test "as_strided of select, diagonal (both offsets), unfold" { regress as_strided_of_select_diagonal_unfold; }
@test "as_strided of expand, broadcast_to, squeeze/unsqueeze, view, reshape, flatten, unflatten" { regress as_strided_of_expand_squeeze_and_views; }
@test "as_strided of as_strided, alias, detach; in a fused elementwise chain" { regress as_strided_nested_detach_and_a_fused_chain; }
@test "as_strided of channels-last copies and a channels-last weight" { regress as_strided_of_channels_last_copies_and_weights; }
@test "as_strided of a transposed input" { regress as_strided_of_a_non_contiguous_input; }
@test "as_strided of views of int32, float64 and bool tensors; empty and one-element results" { regress as_strided_of_views_int_f64_bool_empty; }
@test "as_strided of views at torch level" { regress as_strided_of_a_view_torch_graph; }
@test "as_strided of a split piece: past it and with an offset are refused" { regress as_strided_of_a_split_piece_past_it; regress as_strided_of_a_split_piece_with_an_offset; regress as_strided_of_a_chunk_with_an_offset_torch_graph; }
@test "as_strided of a view of a product kept transposed is refused" { regress as_strided_of_a_view_of_a_transposed_product; }
@test "as_strided of 32 random view chains (fixed seed)" { regress as_strided_of_random_view_chains; }
@test "arange(out=x) keeps the shape of x, int64 and float64" { regress arange_out_keeps_the_shape_of_out; }
@test "as_strided of inputs with an extent of 0 (PyTorch strides)" { regress as_strided_of_empty_inputs; }
