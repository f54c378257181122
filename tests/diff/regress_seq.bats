#!/usr/bin/env bats
# The sequence family (issue 19): list producers of recurrent nets, sort,
# topk and their relatives (cases_seq.py), against PyTorch.
load helpers

@test "unsafe_split, unsafe_split_with_sizes, unsafe_chunk, split, chunk, unbind" { regress unsafe_split_and_friends; }
@test "unsafe_split into pieces of 1, of an empty input" { regress unsafe_split_size_one_and_zero; }
@test "sort along every dim, both directions; argsort; msort" { regress sort_dims_and_directions; }
@test "sort of a strided view, in chains with elementwise ops and cumsum" { regress sort_of_a_strided_view_and_chains; }
@test "topk for every k, largest and smallest" { regress topk_every_k_largest_and_smallest; }
@test "kthvalue: first, last, keepdim" { regress kthvalue_first_last_keepdim; }
@test "sort and topk of int64 and uint8" { regress sort_topk_int64_uint8; }
@test "sort and topk of float64 and int32" { regress sort_topk_float64_int32; }
@test "stable sort: ties, NaN, -0.0, inf, bool" { regress sort_stable_ties_nan_signed_zero; }
@test "sort and topk: extent 1, extent 0, k = 0" { regress sort_topk_extent_one_and_zero; }
@test "sort and topk of float16 and bfloat16" { regress sort_topk_float16_bfloat16; }
@test "nn.LSTM bidirectional, sequence first" { regress lstm_bidirectional_seq_first; }
@test "nn.LSTM with proj_size, batch and sequence of 1" { regress lstm_proj_size_batch_one; }
@test "nn.GRU without bias, bidirectional, 2 layers" { regress gru_no_bias_bidirectional_two_layers; }
@test "nn.RNN tanh (2 layers) and relu" { regress rnn_tanh_and_relu; }
