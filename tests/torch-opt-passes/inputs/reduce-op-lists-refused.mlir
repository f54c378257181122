// Lists whose tensors cannot be read where the op reads them: refused,
// never left holding non-value tensors.

func.func @list_argument(%list: !torch.list<tensor>) -> !torch.tensor {
  %int0 = torch.constant.int 0
  // expected-error @+1 {{failed to legalize operation 'torch.aten.stack' that was explicitly marked illegal: operand #0 (!torch.list<tensor>)}}
  %0 = torch.aten.stack %list, %int0 : !torch.list<tensor>, !torch.int -> !torch.tensor
  return %0 : !torch.tensor
}

// -----

// The list may change between its construction and the op.
func.func @list_appended(%a: !torch.tensor, %b: !torch.tensor) -> !torch.tensor {
  %int0 = torch.constant.int 0
  %list = torch.prim.ListConstruct %a : (!torch.tensor) -> !torch.list<tensor>
  %n = torch.aten.append.t %list, %b : !torch.list<tensor>, !torch.tensor -> !torch.list<tensor>
  // expected-error @+1 {{failed to legalize operation 'torch.aten.cat'}}
  %0 = torch.aten.cat %list, %int0 : !torch.list<tensor>, !torch.int -> !torch.tensor
  return %0 : !torch.tensor
}

// -----

func.func @optional_argument(%w: !torch.optional<tensor>, %x: !torch.tensor<[5],f32>) -> !torch.tensor {
  %int5 = torch.constant.int 5
  %shape = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %eps = torch.constant.float 1.0e-05
  %false = torch.constant.bool false
  // expected-error @+1 {{operand #2 (!torch.optional<tensor>) holds non-value tensors}}
  %0 = torch.aten.layer_norm %x, %shape, %w, %none, %eps, %false : !torch.tensor<[5],f32>, !torch.list<int>, !torch.optional<tensor>, !torch.none, !torch.float, !torch.bool -> !torch.tensor
  return %0 : !torch.tensor
}

// -----

// PyTorch refuses to write a float result into an integer tensor.
func.func @inplace_float_into_int(%a: !torch.tensor<[3],si64>, %b: !torch.tensor<[3],f32>) -> !torch.tensor<[3],si64> {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.add_.Tensor' writes a result of dtype code 6 into a tensor of dtype code 4, a cast PyTorch refuses}}
  %0 = torch.aten.add_.Tensor %a, %b, %int1 : !torch.tensor<[3],si64>, !torch.tensor<[3],f32>, !torch.int -> !torch.tensor<[3],si64>
  return %0 : !torch.tensor<[3],si64>
}

// -----

// In training, batch_norm writes its running statistics, which the caller
// sees: a value op would lose the write.
func.func @batch_norm_training(%x: !torch.tensor<[2,3],f32>, %rm: !torch.tensor<[3],f32>, %rv: !torch.tensor<[3],f32>, %training: !torch.bool) -> !torch.tensor<[2,3],f32> {
  %none = torch.constant.none
  %w = torch.derefine %none : !torch.none to !torch.optional<tensor>
  %m = torch.derefine %rm : !torch.tensor<[3],f32> to !torch.optional<tensor>
  %v = torch.derefine %rv : !torch.tensor<[3],f32> to !torch.optional<tensor>
  %f = torch.constant.float 1.0e-01
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.batch_norm' may update its running statistics in place (training is not known false)}}
  %0 = torch.aten.batch_norm %x, %w, %w, %m, %v, %training, %f, %f, %false : !torch.tensor<[2,3],f32>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.tensor<[2,3],f32>
  return %0 : !torch.tensor<[2,3],f32>
}

// -----

// After t_, the handle itself is transposed: a later use of it would see
// the old shape if t_ only became a view.
func.func @inplace_view_used_after(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  // expected-error @+1 {{'aten.t_' changes the shape of a tensor that is used after it; not supported}}
  %1 = torch.aten.t_ %0 : !torch.tensor -> !torch.tensor
  %2 = torch.copy.to_vtensor %0 : !torch.vtensor
  return %2 : !torch.vtensor
}
