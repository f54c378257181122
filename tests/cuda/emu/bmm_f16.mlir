// bmm [3,40,33] @ [3,33,70] in f16 + a residual: tensor cores with a batch
// dim and an epilogue
module {
  func.func @main(%a: !torch.vtensor<[3,40,33],f16>, %b: !torch.vtensor<[3,33,70],f16>, %c: !torch.vtensor<[3,40,70],f16>) -> !torch.vtensor<[3,40,70],f16> {
    %r = torch.aten.bmm %a, %b : !torch.vtensor<[3,40,33],f16>, !torch.vtensor<[3,33,70],f16> -> !torch.vtensor<[3,40,70],f16>
    %int1 = torch.constant.int 1
    %s = torch.aten.add.Tensor %r, %c, %int1 : !torch.vtensor<[3,40,70],f16>, !torch.vtensor<[3,40,70],f16>, !torch.int -> !torch.vtensor<[3,40,70],f16>
    return %s : !torch.vtensor<[3,40,70],f16>
  }
}
