#!/usr/bin/env bats
# Elementwise ops the backend contract lacks, decomposed in
# lib/torch/decompose_ew.c (cases_ew.py), against PyTorch.  Several cases a
# test: one PyTorch start for each.
load helpers

@test "xlogy (x == 0, NaN y, int, f64, kl_div), shifts of every width, bitwise_and.Scalar" {
  regress xlogy_zero_nan_inf_int_f64 shifts_every_width_and_out_of_range bitwise_and_scalar
}
@test "asin, acos, atan, sinh, cosh, asinh, acosh, atanh: special values f32, f64 wide, int, bf16, empty" {
  regress inverse_and_hyperbolic_trig_special_values_f32 inverse_and_hyperbolic_trig_f64_wide \
    inverse_and_hyperbolic_trig_int_bf16_empty
}
@test "sinh, cosh of bf16: inf where exp(|x|) overflows f32 (89.0), as eager's vector loop" {
  regress sinh_cosh_bf16_inf_where_exp_overflows_f32
}
@test "log10, exp2, logaddexp[2], logit, logsigmoid, shrinks, celu, prelu, rrelu, fmax, nan_to_num, round, glu, signbit, copysign, view.dtype, a chain, degrees of bf16/f16; rrelu training reading the noise and a wider view.dtype refused" {
  regress log10_exp2_logaddexp_logit_logsigmoid heaviside_shrinks_celu_prelu_rrelu_fmax \
    nan_to_num_frac_sgn_isinf_degrees_round_glu signbit_copysign_negative_zero_and_nan \
    view_dtype_same_and_narrower view_dtype_wider_refused \
    chain_of_decompositions_fuses rrelu_training_noise_read_refused degrees_of_f16_bf16_by_a_rounded_constant
}
