#!/usr/bin/env bats
# The front end (fx-export, fx-import, torch-opt): cases that once gave
# wrong results or invalid IR (cases_front.py), against PyTorch.
load helpers

@test "copy into a slice of a clone is kept" { regress slice_copy_into_clone; }
@test "circular padding writes into slices of new_empty" { regress pad_circular; }
@test "y[0] = z is a select_scatter" { regress select_copy_into_clone; }
@test "a write into a strided slice" { regress strided_slice_write; }
@test "writes into negative slices and a row fill" { regress negative_slice_and_fill_write; }
@test "y[mask] = scalar is a where" { regress masked_write; }
@test "y[mask] += v (data-dependent size) is refused" { regress masked_accumulate_rows; }
@test "an in-place op on an input" { regress inplace_op_on_input; }
@test "in-place ops on views of a clone" { regress inplace_op_on_views; }
@test "an in-place op computes in the promoted dtype and rounds once into its tensor" { regress inplace_op_computes_in_promoted_dtype; }
@test "integer addmm with float scales stays integer" { regress addmm_int_float_scales; }
@test "int32 baddbmm with float scales stays int32" { regress baddbmm_int32_float_scales; }
@test "to(uint8) gives uint8" { regress to_uint8_result; }
@test "uint8 inputs and outputs, unsigned arithmetic" { regress uint8_arith; }
@test "uint8 promotion with int64 and float" { regress uint8_with_int_and_float; }
@test "floor_divide floors on signed integers and floats" { regress floor_divide_signed; }
@test "clamp of an int tensor with float bounds is float" { regress clamp_int_with_float_bounds; }
@test "where with an int tensor and a float scalar" { regress where_int_with_float_scalar; }
@test "x[i] with an int64 index tensor" { regress index_with_int64_tensor; }
@test "a write into a view that cannot be functionalized is refused" { regress index_put_cols_unfunctionalizable; }
@test "arange(end) and arange(start, end)" { regress arange_forms; }
@test "bf16 inputs and results" { regress bf16_inputs_and_results; }
@test "any and all of uint8 are uint8" { regress uint8_any_all; }
@test "y[uint8 mask] = v is a masked write" { regress uint8_mask_write; }
@test "x[uint8 mask] is refused, not read as indices" { regress uint8_mask_read; }
@test "index_put with an empty index (a leak under SANITIZE=1, fuzz-diff)" { regress index_put_with_empty_index; }
@test "0-d uint8 arguments and results (UBSan under SANITIZE=1, fuzz-diff)" { regress uint8_zero_dim_arguments; }
@test "F.conv2d traced is aten.conv2d, decomposed to convolution" { regress conv2d_function; }
@test "F.conv1d traced, grouped, no bias" { regress conv1d_function; }
@test "argmax and argmin over all dims with keepdim are [1, ..., 1]" { regress argmax_all_dims_keepdim; }
@test "a 0-dim tensor with a Python number promotes as PyTorch (wrapped number)" { regress zero_dim_tensor_with_python_number; }
@test "aten.broadcast_tensors: three ranks, an int tensor, a size-0 dim" { regress broadcast_tensors_three_and_empty; }
