#!/usr/bin/env bats
# The index and scatter family (decompose_idx.c): scatter_reduce,
# _index_put_impl, bool-mask index_put, masked_scatter, count_nonzero,
# bucketize, tril/triu_indices, repeat_interleave, embedding_bag
# (cases_idx.py), against PyTorch.  Several cases share one process (one
# PyTorch start) to keep the file short.
load helpers

@test "scatter_reduce: every mode, include_self, f32/f64/int32/int64, NaN and inf, duplicates" {
  regress scatter_reduce_every_mode_f32 scatter_reduce_int32_int64_floor_mean \
    scatter_reduce_f64_nan_inf_extent_one
}
@test "_index_put_impl, bool-mask index_put, masked_scatter" {
  regress index_put_impl_accumulate_and_none index_put_bool_masks \
    masked_scatter_broadcast_and_ints
}
@test "count_nonzero, bucketize, tril/triu_indices, repeat_interleave, embedding_bag; bincount refused" {
  regress count_nonzero_and_bucketize tril_triu_indices_offsets \
    repeat_interleave_and_embedding_bag bincount_refused
}
@test "one_hot of a constant class count: edges, 0-D, empty, a view" {
  regress one_hot_constant_classes
}
