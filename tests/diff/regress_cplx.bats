#!/usr/bin/env bats
# Complex tensors (complex64, complex128) end to end, as pairs of reals
# (tools/fx-import/complex.c), and torch.norm (cases_cplx.py), against PyTorch.
load helpers

@test "complex: view_as_real/complex, real, imag, slices, reshape, permute, flip, conj, neg" { regress complex_views_parts_conj; }
@test "complex: mul, add, sub promoted (complex128, float, int64), broadcast, 0-d" { regress complex_mul_add_sub_promoted; }
@test "complex: abs, angle, vector norms, torch.norm, an empty input" { regress complex_abs_angle_norms; }
@test "torch.norm: inf and -inf norms of no elements are 0" { regress norm_inf_of_nothing; }
@test "complex: torch.complex, torch.polar, cat and hstack promoting" { regress complex_create_polar_cat; }
@test "rfft: dims, norms, odd/even/1 lengths, f64, rfft2, a chain" { regress rfft_dims_norms_sizes; }
@test "stft of a batch with a window" { regress stft_batch_window; }
@test "fft and ifft (_fft_c2c) of complex and real inputs, one and two dims" { regress fft_ifft_complex_and_real; }
@test "complex: an op without a rule is refused clearly" { regress complex_exp_refused; }
@test "quantized: quantize_per_tensor, int_repr, dequantize per tensor and per channel" { regress quantize_dequantize_int_repr; }
@test "quantized: a quantized result is refused clearly" { regress quantized_result_refused; }
@test "complex: inf and NaN in either part of add, sub, mul with complex, real and scalar operands, as eager (fuzz-diff)" {
  regress complex_inf_nan_parts_as_eager complex_inf_nan_parts_as_eager_c128
}
