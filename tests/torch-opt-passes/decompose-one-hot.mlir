// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// one_hot(x, n), n a constant: x[..., None] == arange(n), as int64.
// CHECK-LABEL: func.func @one_hot(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[2,3],si64>)
// CHECK:         %[[U:.*]] = torch.aten.unsqueeze %[[X]], %{{.*}} : !torch.vtensor<[2,3],si64>, !torch.int -> !torch.vtensor<[2,3,1],si64>
// CHECK:         %[[A:.*]] = torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[4],si64>
// CHECK:         %[[V:.*]] = torch.aten.view %[[A]], %{{.*}} -> !torch.vtensor<[1,1,4],si64>
// CHECK:         %[[E:.*]] = torch.aten.eq.Tensor %[[U]], %[[V]] : {{.*}} -> !torch.vtensor<[2,3,4],i1>
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[E]], {{.*}} -> !torch.vtensor<[2,3,4],si64>
// CHECK-NEXT:    return %[[R]]
func.func @one_hot(%x: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3,4],si64> {
  %int4 = torch.constant.int 4
  %0 = torch.aten.one_hot %x, %int4 : !torch.vtensor<[2,3],si64>, !torch.int -> !torch.vtensor<[2,3,4],si64>
  return %0 : !torch.vtensor<[2,3,4],si64>
}

// -----

// n = -1 is the data's max + 1, and a count not known here: left.
// CHECK-LABEL: func.func @one_hot_from_data(
// CHECK:         torch.aten.one_hot
// CHECK-LABEL: func.func @one_hot_runtime_count(
// CHECK:         torch.aten.one_hot
// CHECK-LABEL: func.func @one_hot_int32(
// CHECK:         torch.aten.one_hot
func.func @one_hot_from_data(%x: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,?],si64> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.one_hot %x, %int-1 : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[3,?],si64>
  return %0 : !torch.vtensor<[3,?],si64>
}
func.func @one_hot_runtime_count(%x: !torch.vtensor<[3],si64>, %n: !torch.int) -> !torch.vtensor<[3,?],si64> {
  %0 = torch.aten.one_hot %x, %n : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[3,?],si64>
  return %0 : !torch.vtensor<[3,?],si64>
}
// PyTorch takes int64 classes only.
func.func @one_hot_int32(%x: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3,4],si64> {
  %int4 = torch.constant.int 4
  %0 = torch.aten.one_hot %x, %int4 : !torch.vtensor<[3],si32>, !torch.int -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}
