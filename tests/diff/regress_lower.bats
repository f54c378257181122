#!/usr/bin/env bats
# torch-lower bugs that once gave wrong results, crashes or invalid IR
# (cases_lower.py), against PyTorch.
load helpers

@test "var of a long f32 reduction keeps its precision" { regress var_long_offset; }
@test "std along a long dim keeps its precision" { regress std_dim_long_offset; }
@test "biased var with keepdim along a long dim" { regress var_dim_keepdim_biased_long; }
@test "var of f16" { regress var_f16; }
@test "var with a correction past N divides by zero" { regress var_correction_past_n; }
@test "avg_pool2d of int64 truncates as PyTorch does" { regress avg_pool_int64; }
@test "avg_pool2d of int64 with padding, ceil_mode, count_include_pad=False" { regress avg_pool_int64_padded; }
@test "avg_pool2d of int64 with divisor_override" { regress avg_pool_int64_divisor; }
@test "roll along an empty dim" { regress roll_empty_dim; }
@test "roll of an empty tensor, flattened" { regress roll_empty_flattened; }
@test "gather from a 0-d tensor" { regress gather_from_0d; }
@test "reshape of an empty tensor" { regress view_of_empty; }
@test "flip of a 0-d tensor" { regress flip_0d; }
@test "index_select of a 0-d tensor" { regress index_select_0d; }
@test "repeat of an empty tensor" { regress repeat_empty; }
@test "full with a device operand" { regress full_with_device; }
@test "arange with a float step" { regress arange_float_step; }
@test "arange with a negative step" { regress arange_negative_step; }
@test "reflection pad with a negative pad" { regress reflection_pad_negative; }
@test "replication pad with a negative pad" { regress replication_pad_negative; }
@test "float to int16 wraps through int32 as PyTorch does" { regress float_to_int16_wraps; }
@test "float to uint8 wraps through int32 as PyTorch does" { regress float_to_uint8_wraps; }
@test "scatter into a 0-d tensor" { regress scatter_0d; }
@test "scatter_add into a 0-d tensor" { regress scatter_add_0d; }
@test "grouped conv2d" { regress grouped_conv2d; }
@test "depthwise conv1d of an empty batch" { regress depthwise_conv1d_empty_batch; }
@test "index_put of a 0-d value (fuzz-diff)" { regress index_put_broadcast_scalar_value; }
@test "index_put into an empty tensor, and broadcast rows accumulated" { regress index_put_into_empty_and_broadcast_rows; }
@test "relu, clamp, relu6 and hardtanh keep -0.0 (fuzz-diff)" { regress relu_clamp_keep_negative_zero; }
@test "index_put loops once over the dims it takes whole (fuzz-diff: hours-long kernel)" { regress index_put_shares_the_dims_taken_whole; }
@test "float floor division rounds the exact quotient down, as PyTorch (fuzz-diff: inf // x)" { regress floor_divide_float_as_pytorch; }
