func.func @f(%a: !torch.vtensor<[2],f8E4M3FN>) -> !torch.vtensor<[2],f8E4M3FN> {
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f8E4M3FN> -> !torch.vtensor<[2],f8E4M3FN>
  return %0 : !torch.vtensor<[2],f8E4M3FN>
}
func.func @c(%a: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[3],complex<f32>> {
  return %a : !torch.vtensor<[3],complex<f32>>
}
