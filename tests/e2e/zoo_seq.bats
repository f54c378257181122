#!/usr/bin/env bats
# The sequence family of the model zoo (tests/e2e/zoo_seq.py) through the
# whole pipe, against PyTorch eager: recurrent nets (unsafe_split and
# ListUnpack in their cells), sorting (topk, sort, cumsum) and a GPT-2-style
# decoder block.

load helpers

@test "model lstm (nn.LSTM, 2 layers, batch_first) matches PyTorch" { model lstm; }
@test "model gru (nn.GRU, 2 layers, batch_first) matches PyTorch" { model gru; }
@test "model gpt2_block (embeddings, arange positions, causal mask, attention, GELU MLP) matches PyTorch" { model gpt2_block; }
@test "model topk_sort_cumsum (topk, sort, cumsum: values and int64 indices, both directions) matches PyTorch" { model topk_sort_cumsum; }
