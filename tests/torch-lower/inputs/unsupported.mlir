// An op that has no lowering, with the Python location the importer gives.
#loc1 = loc("model.py":12:8)
module {
  func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
    %0 = torch.aten.sinh %arg0 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32> loc(#loc1)
    return %0 : !torch.vtensor<[4],f32>
  }
}
