// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// type_as of a known dtype: to.dtype of it.
// CHECK-LABEL: func.func @type_as_known(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[3],si32>, %{{.*}}: !torch.vtensor<[2],f64>)
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[3],si32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],f64>
// CHECK-NEXT:    return %[[R]]
func.func @type_as_known(%x: !torch.vtensor<[3],si32>, %o: !torch.vtensor<[2],f64>) -> !torch.vtensor<[3],f64> {
  %0 = torch.aten.type_as %x, %o : !torch.vtensor<[3],si32>, !torch.vtensor<[2],f64> -> !torch.vtensor<[3],f64>
  return %0 : !torch.vtensor<[3],f64>
}

// -----

// Not known yet: other's dtype read where the op runs; the type is kept.
// CHECK-LABEL: func.func @type_as_unknown(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[3],si32>, %[[O:.*]]: !torch.vtensor<[2],unk>)
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK-DAG:     %[[N:.*]] = torch.constant.none
// CHECK-DAG:     %[[D:.*]] = torch.prim.dtype %[[O]] : !torch.vtensor<[2],unk> -> !torch.int
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[X]], %[[D]], %[[F]], %[[F]], %[[N]] : !torch.vtensor<[3],si32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],unk>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     aten.type_as
func.func @type_as_unknown(%x: !torch.vtensor<[3],si32>, %o: !torch.vtensor<[2],unk>) -> !torch.vtensor<[3],unk> {
  %0 = torch.aten.type_as %x, %o : !torch.vtensor<[3],si32>, !torch.vtensor<[2],unk> -> !torch.vtensor<[3],unk>
  return %0 : !torch.vtensor<[3],unk>
}
