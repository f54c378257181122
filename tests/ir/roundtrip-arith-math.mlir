// RUN: torch-opt -p '' %s | FileCheck %s
// arith and math custom forms, as mlir-opt-16 prints them.
// RUN: torch-opt -p '' --mlir-print-op-generic %s | torch-opt -p '' | FileCheck %s
// CHECK: module {
// CHECK-NEXT: func.func @arith(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: tensor<4xf32>, %arg4: i1, %arg5: tensor<4xi1>, %arg6: index, %arg7: i64) -> f32 {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 1.000000e-01 : f64
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %cst_1 = arith.constant dense<[1.000000e+00, 2.500000e+00, 0.000000e+00, -1.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
// CHECK-NEXT: %1 = arith.subf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT: %2 = arith.mulf %arg0, %arg1 fastmath<nnan,ninf> : f32
// CHECK-NEXT: %3 = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT: %4 = arith.maxf %arg0, %arg1 : f32
// CHECK-NEXT: %5 = arith.negf %arg0 : f32
// CHECK-NEXT: %6 = arith.addi %arg2, %c1_i32 : i32
// CHECK-NEXT: %7 = arith.divsi %arg2, %arg2 : i32
// CHECK-NEXT: %8 = arith.shrui %arg2, %arg2 : i32
// CHECK-NEXT: %9 = arith.cmpf ugt, %arg0, %arg1 : f32
// CHECK-NEXT: %10 = arith.cmpi slt, %arg2, %arg2 : i32
// CHECK-NEXT: %11 = arith.cmpf oeq, %arg3, %arg3 : tensor<4xf32>
// CHECK-NEXT: %12 = arith.select %arg4, %arg0, %arg1 : f32
// CHECK-NEXT: %13 = arith.select %arg5, %arg3, %arg3 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: %14 = arith.sitofp %arg7 : i64 to f32
// CHECK-NEXT: %15 = arith.fptosi %arg0 : f32 to i32
// CHECK-NEXT: %16 = arith.index_cast %arg6 : index to i64
// CHECK-NEXT: %17 = arith.extf %arg0 : f32 to f64
// CHECK-NEXT: %18 = arith.truncf %17 : f64 to f32
// CHECK-NEXT: %19 = arith.addf %arg3, %cst_1 : tensor<4xf32>
// CHECK-NEXT: %20 = math.exp %arg0 : f32
// CHECK-NEXT: %21 = math.tanh %arg0 fastmath<fast> : f32
// CHECK-NEXT: %22 = math.sqrt %arg0 : f32
// CHECK-NEXT: %23 = math.rsqrt %arg0 : f32
// CHECK-NEXT: %24 = math.powf %arg0, %arg1 : f32
// CHECK-NEXT: %25 = math.fma %arg0, %arg1, %arg0 : f32
// CHECK-NEXT: %26 = math.absf %arg0 : f32
// CHECK-NEXT: %27 = math.erf %arg0 : f32
// CHECK-NEXT: %28 = math.log1p %arg0 : f32
// CHECK-NEXT: %29 = math.atan2 %arg0, %arg1 : f32
// CHECK-NEXT: %30 = math.ctpop %arg2 : i32
// CHECK-NEXT: %31 = math.roundeven %arg0 : f32
// CHECK-NEXT: return %0 : f32
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @arith(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: tensor<4xf32>, %arg4: i1, %arg5: tensor<4xi1>, %arg6: index, %arg7: i64) -> f32 {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 1.000000e-01 : f64
  %c1_i32 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c-1_i64 = arith.constant -1 : i64
  %true = arith.constant true
  %cst_1 = arith.constant dense<[1.000000e+00, 2.500000e+00, 0.000000e+00, -1.000000e+00]> : tensor<4xf32>
  %0 = arith.addf %arg0, %arg1 : f32
  %1 = arith.subf %arg0, %arg1 fastmath<fast> : f32
  %2 = arith.mulf %arg0, %arg1 fastmath<nnan,ninf> : f32
  %3 = arith.divf %arg0, %arg1 : f32
  %4 = arith.maxf %arg0, %arg1 : f32
  %5 = arith.negf %arg0 : f32
  %6 = arith.addi %arg2, %c1_i32 : i32
  %7 = arith.divsi %arg2, %arg2 : i32
  %8 = arith.shrui %arg2, %arg2 : i32
  %9 = arith.cmpf ugt, %arg0, %arg1 : f32
  %10 = arith.cmpi slt, %arg2, %arg2 : i32
  %11 = arith.cmpf oeq, %arg3, %arg3 : tensor<4xf32>
  %12 = arith.select %arg4, %arg0, %arg1 : f32
  %13 = arith.select %arg5, %arg3, %arg3 : tensor<4xi1>, tensor<4xf32>
  %14 = arith.sitofp %arg7 : i64 to f32
  %15 = arith.fptosi %arg0 : f32 to i32
  %16 = arith.index_cast %arg6 : index to i64
  %17 = arith.extf %arg0 : f32 to f64
  %18 = arith.truncf %17 : f64 to f32
  %19 = arith.addf %arg3, %cst_1 : tensor<4xf32>
  %20 = math.exp %arg0 : f32
  %21 = math.tanh %arg0 fastmath<fast> : f32
  %22 = math.sqrt %arg0 : f32
  %23 = math.rsqrt %arg0 : f32
  %24 = math.powf %arg0, %arg1 : f32
  %25 = math.fma %arg0, %arg1, %arg0 : f32
  %26 = math.absf %arg0 : f32
  %27 = math.erf %arg0 : f32
  %28 = math.log1p %arg0 : f32
  %29 = math.atan2 %arg0, %arg1 : f32
  %30 = math.ctpop %arg2 : i32
  %31 = math.roundeven %arg0 : f32
  return %0 : f32
}
