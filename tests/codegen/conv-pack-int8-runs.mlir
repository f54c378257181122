// RUN: codegen --cpu=znver4 --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=znver4 --emit=llvm %s | FileCheck %s --check-prefix=LL
// A PT2E int8 3x3 convolution (XNNPACKQuantizer; 64 -> 4 channels, 20x20,
// padding 1) on vpdpbusd, B packed in the GEMM kernel panel by panel.  Its
// k is (kh, kw, c), the channel innermost so that a group of four k is
// four channels of one tap, and k divides by 64 (the channels) and 192:
// no period of a few steps.  The pack runs as a loop over the nine taps,
// each tap's offsets and padding tests computed once (kh and kw as a
// division of the tap by 3), around a loop over the tap's 16 groups of
// channels that holds eight masked loads (four channels, two vectors of
// sixteen columns) and no division; the pack had divided each group's k
// by 64 and 192 and tested the padding per group.  The input offset
// (oh + kh - 1) 20 + ow + kw - 1, oh and ow the pixel n's row and column,
// folds to n + 20 (kh - 1) + kw - 1: one masked run of 16 bytes a channel,
// its gather only for the last panel, whose columns past N clamp.
// CHECK: gemm: batch 1, M 4, N 400, K 576, tile 4x32, int8 (vpdpbusd), B packed per panel in the kernel
// CHECK-NEXT: B's pack in 9 runs of 64 k (each run's offsets and padding tests constant)
// LL-LABEL: define internal void @dispatch_1.body
// LL: udiv i64 %{{.*}}, 3
// LL: urem i64 %{{.*}}, 3
// LL: [[PACK:body[0-9]+]]:{{ +}}; preds = %loop{{[0-9]+}}.preheader, %joined{{[0-9]+}}
// LL-NOT: {{udiv|urem|sdiv|srem}}
// LL-COUNT-8: call <16 x i8> @llvm.masked.load.v16i8
// LL-NOT: {{udiv|urem|sdiv|srem}}
// LL: br i1 {{.*}}, label %[[PACK]], label
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x64x20x20xf32>) -> tensor<1x4x20x20xf32> {
    %cst = arith.constant dense_resource<_0.bias> : tensor<4xf32>
    %cst_0 = arith.constant dense_resource<_frozen_param0> : tensor<4x64x3x3xi8>
    %cst_1 = arith.constant dense<[[[[3.27977818E-4]]], [[[3.28031689E-4]]], [[[3.27801303E-4]]], [[[3.27443733E-4]]]]> : tensor<4x1x1x1xf32>
    %cst_2 = arith.constant dense<0> : tensor<4x1x1x1xi64>
    %0 = tensor.empty() : tensor<4x64x3x3xi64>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0, %cst_2 : tensor<4x64x3x3xi8>, tensor<4x1x1x1xi64>) outs(%0 : tensor<4x64x3x3xi64>) {
    ^bb0(%in: i8, %in_5: i64, %out: i64):
      %43 = arith.extsi %in : i8 to i64
      %44 = arith.subi %43, %in_5 : i64
      linalg.yield %44 : i64
    } -> tensor<4x64x3x3xi64>
    %2 = tensor.empty() : tensor<4x64x3x3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %cst_1 : tensor<4x64x3x3xi64>, tensor<4x1x1x1xf32>) outs(%2 : tensor<4x64x3x3xf32>) {
    ^bb0(%in: i64, %in_5: f32, %out: f32):
      %43 = arith.sitofp %in : i64 to f32
      %44 = arith.mulf %43, %in_5 : f32
      linalg.yield %44 : f32
    } -> tensor<4x64x3x3xf32>
    %4 = tensor.empty() : tensor<1x64x20x20xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x64x20x20xf32>) outs(%4 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant 32.2372551 : f32
      %43 = arith.mulf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %6 = tensor.empty() : tensor<1x64x20x20xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<1x64x20x20xf32>) outs(%6 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = math.roundeven %in : f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %8 = tensor.empty() : tensor<1x64x20x20xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<1x64x20x20xf32>) outs(%8 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -1.000000e+00 : f32
      %43 = arith.addf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %10 = tensor.empty() : tensor<1x64x20x20xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<1x64x20x20xf32>) outs(%10 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -1.280000e+02 : f32
      %43 = arith.cmpf uno, %cst_5, %cst_5 : f32
      %44 = arith.select %43, %cst_5, %in : f32
      %45 = arith.cmpf olt, %in, %cst_5 : f32
      %46 = arith.select %45, %cst_5, %44 : f32
      %cst_6 = arith.constant 1.270000e+02 : f32
      %47 = arith.cmpf uno, %cst_6, %cst_6 : f32
      %48 = arith.select %47, %cst_6, %46 : f32
      %49 = arith.cmpf ogt, %46, %cst_6 : f32
      %50 = arith.select %49, %cst_6, %48 : f32
      linalg.yield %50 : f32
    } -> tensor<1x64x20x20xf32>
    %12 = tensor.empty() : tensor<1x64x20x20xi8>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x64x20x20xf32>) outs(%12 : tensor<1x64x20x20xi8>) {
    ^bb0(%in: f32, %out: i8):
      %43 = arith.fptosi %in : f32 to i32
      %44 = arith.trunci %43 : i32 to i8
      linalg.yield %44 : i8
    } -> tensor<1x64x20x20xi8>
    %14 = tensor.empty() : tensor<1x64x20x20xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<1x64x20x20xi8>) outs(%14 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: i8, %out: f32):
      %43 = arith.sitofp %in : i8 to f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %16 = tensor.empty() : tensor<1x64x20x20xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x64x20x20xf32>) outs(%16 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -1.000000e+00 : f32
      %43 = arith.subf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %18 = tensor.empty() : tensor<1x64x20x20xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<1x64x20x20xf32>) outs(%18 : tensor<1x64x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant 0.0310200118 : f32
      %43 = arith.mulf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x64x20x20xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %20 = tensor.empty() : tensor<1x64x22x22xf32>
    %21 = linalg.fill ins(%cst_3 : f32) outs(%20 : tensor<1x64x22x22xf32>) -> tensor<1x64x22x22xf32>
    %inserted_slice = tensor.insert_slice %19 into %21[0, 0, 1, 1] [1, 64, 20, 20] [1, 1, 1, 1] : tensor<1x64x20x20xf32> into tensor<1x64x22x22xf32>
    %22 = tensor.empty() : tensor<1x4x20x20xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %23 = linalg.fill ins(%cst_4 : f32) outs(%22 : tensor<1x4x20x20xf32>) -> tensor<1x4x20x20xf32>
    %24 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inserted_slice, %3 : tensor<1x64x22x22xf32>, tensor<4x64x3x3xf32>) outs(%23 : tensor<1x4x20x20xf32>) -> tensor<1x4x20x20xf32>
    %25 = tensor.empty() : tensor<1x4x20x20xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %cst : tensor<1x4x20x20xf32>, tensor<4xf32>) outs(%25 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %43 = arith.addf %in, %in_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %27 = tensor.empty() : tensor<1x4x20x20xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<1x4x20x20xf32>) outs(%27 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant 59.0886765 : f32
      %43 = arith.mulf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %29 = tensor.empty() : tensor<1x4x20x20xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28 : tensor<1x4x20x20xf32>) outs(%29 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = math.roundeven %in : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %31 = tensor.empty() : tensor<1x4x20x20xf32>
    %32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30 : tensor<1x4x20x20xf32>) outs(%31 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -4.000000e+00 : f32
      %43 = arith.addf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %33 = tensor.empty() : tensor<1x4x20x20xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32 : tensor<1x4x20x20xf32>) outs(%33 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -1.280000e+02 : f32
      %43 = arith.cmpf uno, %cst_5, %cst_5 : f32
      %44 = arith.select %43, %cst_5, %in : f32
      %45 = arith.cmpf olt, %in, %cst_5 : f32
      %46 = arith.select %45, %cst_5, %44 : f32
      %cst_6 = arith.constant 1.270000e+02 : f32
      %47 = arith.cmpf uno, %cst_6, %cst_6 : f32
      %48 = arith.select %47, %cst_6, %46 : f32
      %49 = arith.cmpf ogt, %46, %cst_6 : f32
      %50 = arith.select %49, %cst_6, %48 : f32
      linalg.yield %50 : f32
    } -> tensor<1x4x20x20xf32>
    %35 = tensor.empty() : tensor<1x4x20x20xi8>
    %36 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x4x20x20xf32>) outs(%35 : tensor<1x4x20x20xi8>) {
    ^bb0(%in: f32, %out: i8):
      %43 = arith.fptosi %in : f32 to i32
      %44 = arith.trunci %43 : i32 to i8
      linalg.yield %44 : i8
    } -> tensor<1x4x20x20xi8>
    %37 = tensor.empty() : tensor<1x4x20x20xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36 : tensor<1x4x20x20xi8>) outs(%37 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: i8, %out: f32):
      %43 = arith.sitofp %in : i8 to f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %39 = tensor.empty() : tensor<1x4x20x20xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38 : tensor<1x4x20x20xf32>) outs(%39 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant -4.000000e+00 : f32
      %43 = arith.subf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    %41 = tensor.empty() : tensor<1x4x20x20xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40 : tensor<1x4x20x20xf32>) outs(%41 : tensor<1x4x20x20xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant 0.0169237163 : f32
      %43 = arith.mulf %in, %cst_5 : f32
      linalg.yield %43 : f32
    } -> tensor<1x4x20x20xf32>
    return %42 : tensor<1x4x20x20xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      _0.bias: "0x04000000FEB421BDA2EB18BDCEA3C53CEB91C9BC",
      _frozen_param0: "0x01000000FF4497A3CF22FD65F522DAE787ACCC05324CAAC92E69E65FEC0D738AB0E0CE6EAEC6A789B66D393E07BF1589A4BF504AC8FB517E321155B5189EA8BE3933B52646F0051D4F7A9ED132696F7019920CB18A71618118EBEBC631B52F405B3082AE3F1B9DB77856C9E087FEA09EF913CC4BB3735795E006131E3208C23C86B5E0C2D498E51BADF95BF304F51A51785179F78EC457FFC19F8995E64645854F9DE5CCE8E78E92EC02C6308EF770CC732E8D50F1C766990EE55B233D2DE1E597456557A606A6BAB62BB4FD0552A0A9B659D26B2E10FFE710E3FF109DBD6799F77E2E04923FA6DCD5ED016910724EB039A6CA252A5FD70041855C9702EABD1169DBB5D18239C3ABB74943622ED6DC266823C4C4881BB98F6FADF22404AB99651569D525E3FAB32B28FDE3B258A134D5C317BE1D19A2153632F098EC2CD23055BE01350A0B109C0A58724B113BC297937F51A832607F6F62E3D36847B4723D45B024D363E9311736D53EA71DAA839A644577668FA9EBAD58A0C285B868685B6271DF38712A7F424FD43D0FE2B8B99E555AF2B6625109C47534A07A60D247B8EC6C05A6D6DEE70C7507B2073D3F8CE9A2CA2EA62F6C08ABD21C9F3F8D8685E655886ACD25068D69447E40AC6A073C9ADB83CF1B9C284412AB9ED9387D49F22D83933BB83DA6C19742F3624F4604D9E4113FA76BF296BB70748A5A404B6CBC2834DA2BDB4FDDD1202DC20B4AF327E12DA4B5C075DE00C27F7CA099A0FFE0ADD218BE1CE3C21168AA06D17D87867DB018F5E5E4510684B5D540AE78E4E964406C49D9ACF769D58A347CDC978D20F6C01A306563ED908D7738379276787395D0A978C9C643C5C1F5F49D6AC82D6E40126C11C5781E84DCA96FEB8CF85021280C2FE1CD89A037B5122909AE79B6689BE145CC6BA995C71575C32DE0E45D9E0D77EF63D96685EEEA293262EDFB57DE6FABF2F93957EC973F2633B252780B8959A21D12C52C8E1DAFF2106CC351F0C4918B7CE00622566C67A2ECB5B71E779A4DBEE765E30CA76CF0A325A69B0865DC3C6D54BDF2D89A00606B0C1DC960CBA8144C8D732EA7E56E9FDB2A9146424FAF7FB57F868F4E0D07BACBDB84071600297922D2CCAFA8ECEA39CA65A700727EB6170FC4D422A81537CE6AF83A7ED945DCEDEAFFD01E0551E60DD1963310CDD521E953073037E1375E06190558CABC379102C6548A4D7E1AF87DCAF6C8EE1C11E88107FC13617BB5F8CD8BA4774A44479B0D76B9712159CA3B8FF82A266A7D745559F09DD1F2BB412D141F702E91A438113E818B4E518D309D60287E838656714E54955C881CADCE16CEEC888831CAB3CE989A4C4111BB2A06A51B7483821060B31C59271B7F53B90B41708245DB841CBB12AEA0F5D54A0B6318D7560718D700E8F59DFF97E54AA8AAE1DD161540A8F7476EF7B72548B1B638F788B734D5586412F6D8FA179FE2964EAF74DFB73D1358358650E8C8515D90F568316BD4BA6D357ACBAEF188325E1EF33FAF7C8286E2680D31A32EF2335A37F5F8B0D253CD4FCEE2038BFFF3F5E7645EAA3B9C942702C585CF2A8A8510A491CFEC8DAB0888EEAEA8329EA0481874DEC3F4016181F738BABF3D861E9E3F934E8895026493C770EB3586D8BF6B35A314FFCCB7D664A5A5D9022304E1B3E9CD6784AF99E9636F91FA4B3868FCAB54D442E13672768CACCBAF7AF5ACC7BA34918983373FB1205E12E509F240AA4048B3687DCEDC3F9C321E509296392E8AB98CA5C769E749793A8E403063834E688A0D6DA42A38217E686DF06B8ABBE5DA753C5256A1F1132141CDDA6ADEA85656D8E7A29630CA659AEE0341675638C6A58E067BE8FBA4275183A65E1EF817EDA78954F1D1DFBBDA935F34C0D539D12223B020086FD2DF6E98097AC77A7176F473C9D4301B4679B0432B433CD09C66B85187EA01160A28F21F7EAEF9CF706DFDD4B15BF778486F65AD25CB40F50BA88E301E0B56CB2DBA1AE3596F6E064B81B517019CC8C5820C5734C48B990257CDBBBCF587907DC3E9DE90EA27CCFBFF815C6757D64289E1E6D335C6F1DB89EB944A4477D506197F75BE948DC36B2B7B5E02B17C6637BB640C54354390BA4CE69174FD679D2CD0CBE5D146E8601DECB78CDB8AE802F8C25848E1CE506F8CE5F4D26DED6C01F2B6D62938FB79A83172EA6502A1BA2FC91F7D2BF420B795A0951A19CA8445B8EB95B8358AB85FBFCBDC36AD0D34F7179F3930F0973353EA3C2FCDF77F019BF73FD7BD6943EA06F31E05B3180308D021992645F29D000092A6765F4658314854E2F05B00AD9D47696315588BA48666FFC52BD0AE3117A5AC3C610AC03D1691AE1C4FD73DB17A5B18392CB5FF22E37ACF8EC38A69C7A7F2AABE41A13C5D0038B9637B1E7482F219923ED0D29B34A4E538601DD1C947186B30669A66C6DE01E81971B4279A1469566D45F521CB6C40A36EFEFADDDE06C28ABEE7605EB4FBDBBCEAD447C114B8D864C2F87A2CBFB4D3D837E46BBAD82E667A1405C748B6DF9686470965654333DF443D2CFC1301A41EA23EB4D6C464A641405A204565192B9DDE0C0FD382DF316E8D3D8786B0EF249F62730868C6CEF00EA79A32257CCC2DCD3FF95E476A41056EB5787C7AC5BD082840346CE0D62B23B60C9FDBCE708DB583209E29A8AEBF137577F683D6D0E531403824CCFF10BFF5F08856F39265BC2D7E06253360D9B8F6640B58FF27040387910B3F5506363592909D02B0D7ED321E7673AF00156FD9CEAF5EDCD05675FBA668D4C5A7C39CB78CE6339F00D13E6EEFC09EB5251D45ED418F227C82BE51ECBC4E0905D960471713424FCCF238C277A93BA529590FF351A5AA94B203C61C046AC9DD54E07ACDFFE23B31BC54F8E0FD597D3E1653CBBDDBAE370CD4F3FD6D729E2F3131EF20207C86D0AAC2194EA0536AC116BF1BC5CEAB9666F0FCC159B7CD9D95719EEEDB2F229E72810DF5E3576B11D35F5017DD05710EE794BC5CFCF832ACF7DC4368505F8ED30F9423AD3767936B3BAC7A92AAC1FA17DB87F161624012209E3481CBDF5DFCC61696DE23F8F34E9FC07B19EB424DEBCBEB2EF04A98C261111A2AE2CD25DECB111FF5AAEDB843AC6533935E82F9B1930DC25C9C6A4D6FDBB2AB6AC1F0EC169867A27DCEC7EF26E8815A7E407D23F69B91A8E04ACBFBFEADFD7B6661F30246D6CC6D07AA6B154491184EEEB8663B241E0349E4B5312230F2EFF6229E8930BAF52312521120F5132F5787CB8ECD4E"
    }
  }
#-}
