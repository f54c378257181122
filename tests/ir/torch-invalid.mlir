// RUN: torch-opt -p '' -split-input-file -verify-diagnostics %s
// What the torch dialect's parser and verifier refuse, and how they say so.

// expected-error @+1 {{invalid dtype 'index' for !torch.vtensor type}}
func.func private @dtype_none() -> !torch.vtensor<[2],index>

// -----

// expected-error @+1 {{invalid dtype '!torch.int' for !torch.tensor type}}
func.func private @dtype_torch_int() -> !torch.tensor<*,!torch.int>

// -----

// expected-error @+1 {{invalid element type for complex}}
func.func private @complex_of_int() -> !torch.tensor<*,complex<i32>>
