func.func @f() -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[8],f32>) {
  %0 = torch.vtensor.literal(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
  %1 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %2 = torch.vtensor.literal(dense_resource<blob8> : tensor<8xf32>) : !torch.vtensor<[8],f32>
  return %0, %1, %2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[8],f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob8: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"
    }
  }
#-}
