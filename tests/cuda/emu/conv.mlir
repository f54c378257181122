// conv2d NCHW 2x5x13x11 * 24x5x3x3, stride 2, padding 1, + bias: a tiled
// contraction over (c, kh, kw) with the padding inside the staged loads
module {
  func.func @main(%x: !torch.vtensor<[2,5,13,11],f32>, %w: !torch.vtensor<[24,5,3,3],f32>, %b: !torch.vtensor<[24],f32>) -> !torch.vtensor<[2,24,7,6],f32> {
    %int2 = torch.constant.int 2
    %int1 = torch.constant.int 1
    %int0 = torch.constant.int 0
    %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
    %pad = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
    %dil = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %opad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
    %r = torch.aten.convolution %x, %w, %b, %stride, %pad, %dil, %false, %opad, %int1 : !torch.vtensor<[2,5,13,11],f32>, !torch.vtensor<[24,5,3,3],f32>, !torch.vtensor<[24],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,24,7,6],f32>
    return %r : !torch.vtensor<[2,24,7,6],f32>
  }
}
