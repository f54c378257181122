#!/usr/bin/env bats
# The sequence family (issue 19): list producers of recurrent nets, sort,
# topk and their relatives (cases_seq.py), against PyTorch.
load helpers

@test "unsafe_split, unsafe_split_with_sizes, unsafe_chunk, split, chunk, unbind" { regress unsafe_split_and_friends; }
@test "unsafe_split into pieces of 1, of an empty input" { regress unsafe_split_size_one_and_zero; }
