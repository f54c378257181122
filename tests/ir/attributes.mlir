// RUN: torch-opt -p '' %s | FileCheck %s
// Attribute syntax: floats (incl. inf/nan/-0.0 and the round-trip rules), ints,
// arrays, dicts, dense and dense_resource with the resource section, affine maps.
// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// CHECK: #map = affine_map<(d0, d1)[s0] -> (d0 - d1, d0 * 2, d0 floordiv 2 + s0, d1 ceildiv 4, d0 mod 3, -d1, d0 - 1, 0)>
// CHECK-NEXT: #map1 = affine_map<() -> ()>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func private @floats() attributes {a = 0.000000e+00 : f32, b = -0.000000e+00 : f32, c = 0x7F800000 : f32, d = 0xFF800000 : f32, e = 0x7FC00000 : f32, f = 1.000000e-01 : f64, g = 0.10000000149011612 : f64, h = 0x419D6F3454000000 : f64, i = 1.500000e+00 : f16, j = 3.140630e+00 : bf16, k = 1.000000e+10 : f32, l = 1.000000e-10 : f64, m = 1.2345678899999999 : f64}
// CHECK-NEXT: func.func private @ints() attributes {a = 1 : i64, b = -1 : i32, c = true, d = false, e = 0 : index, f = 255 : ui8, g = -3 : si8, h = 9223372036854775807 : i64}
// CHECK-NEXT: func.func private @misc() attributes {a = "str\0A\22\\", b = [1, 2.000000e+00, 1 : i32, "x", [], {}], c = {n = 1 : i64, u}, d, e = @sym, f = @a::@b, g = f32, h = tensor<4x?xf32>, i = (i32, f32) -> (f32, i32), j = #map, k = #map1, l = tuple<i32, f32>, m = vector<2xi64>, n = none, o = @"quoted name"}
// CHECK-NEXT: func.func private @arrays() attributes {a = array<i64: 1, 2>, b = array<i32>, c = array<i1: true, false>, d = array<f32: 1.000000e+00, 2.500000e+00>, e = array<i8: -1>}
// CHECK-NEXT: func.func private @dense() attributes {a = dense<0.000000e+00> : tensor<3xf32>, b = dense<{{\[\[}}1, 2], [3, 4{{\]\]}}> : tensor<2x2xi32>, c = dense<true> : tensor<2xi1>, d = dense<[true, false]> : tensor<2xi1>, e = dense<> : tensor<0xf32>, f = dense<5> : tensor<i64>, g = dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>, h = dense<1> : vector<2xi64>, i = dense<[-1, 255]> : tensor<2xi16>, j = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>, k = dense<7> : tensor<1xi8>, l = dense<1.000000e+00> : tensor<1x1x1xf64>, m = dense_resource<blob1> : tensor<2xi32>}
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: blob1: "0x040000000100000002000000"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}

#map = affine_map<(d0, d1)[s0] -> (d0 - d1, d0 * 2, d0 floordiv 2 + s0, d1 ceildiv 4, d0 mod 3, -d1, d0 - 1, 0)>
module {
  func.func private @floats() attributes {a = 0.000000e+00 : f32, b = -0.000000e+00 : f32, c = 0x7F800000 : f32, d = 0xFF800000 : f32, e = 0x7FC00000 : f32, f = 1.000000e-01 : f64, g = 0.10000000149011612 : f64, h = 0x419D6F3454000000 : f64, i = 1.500000e+00 : f16, j = 3.140625 : bf16, k = 1.000000e+10 : f32, l = 1.000000e-10 : f64, m = 1.23456789 : f64}
  func.func private @ints() attributes {a = 1 : i64, b = -1 : i32, c = true, d = false, e = 0 : index, f = 255 : ui8, g = -3 : si8, h = 9223372036854775807 : i64}
  func.func private @misc() attributes {a = "str\0A\22\\", b = [1, 2.000000e+00, 1 : i32, "x", [], {}], c = {n = 1 : i64, u}, d = unit, e = @sym, f = @a::@b, g = f32, h = tensor<4x?xf32>, i = (i32, f32) -> (f32, i32), j = #map, k = affine_map<() -> ()>, l = tuple<i32, f32>, m = vector<2xi64>, n = none, o = @"quoted name"}
  func.func private @arrays() attributes {a = array<i64: 1, 2>, b = array<i32>, c = array<i1: true, false>, d = array<f32: 1.000000e+00, 2.500000e+00>, e = array<i8: -1>}
  func.func private @dense() attributes {a = dense<0.000000e+00> : tensor<3xf32>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<true> : tensor<2xi1>, d = dense<[true, false]> : tensor<2xi1>, e = dense<> : tensor<0xf32>, f = dense<5> : tensor<i64>, g = dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>, h = dense<1> : vector<2xi64>, i = dense<[-1, 255]> : tensor<2xi16>, j = dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>, k = dense<7> : tensor<1xi8>, l = dense<[[[1.000000e+00]]]> : tensor<1x1x1xf64>, m = dense_resource<blob1> : tensor<2xi32>}
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
