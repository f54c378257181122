#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# vmrun's inputs and outputs: .npy round trips for every dtype, raw bf16,
# text, and the errors for wrong inputs (count, shape, dtype, text, files).
load helpers

@test ".npy round trips byte for byte: f32 f64 f16 i64 i32 i16 i8 u8 bool" {
  pack host
  for t in f32 f64 f16 i64 i32 i16 i8 ui8 i1; do
    bin/vmrun "$T/host.vmfb" --function=id_$t --input=@$IN/npy/x_$t.npy --output=@"$T/y_$t.npy"
    cmp "$IN/npy/x_$t.npy" "$T/y_$t.npy"
  done
  run bin/vmrun "$T/host.vmfb" --function=id_i64 --input=@$IN/npy/x_i64.npy
  [ "$output" = "2x3xi64=[1 -2 4611686018427387904][-9223372036854775808 0 7]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_ui8 --input=@$IN/npy/x_ui8.npy
  [ "$output" = "2x3xui8=[1 2 255][128 0 7]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_f16 --input=@$IN/npy/x_f16.npy
  [ "$output" = "2x3xf16=[1.5 -2.25 3][0 65504 -0.125]" ]
}

@test "numpy reads what vmrun writes" {
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null || skip "no numpy"
  pack host
  bin/vmrun "$T/host.vmfb" --function=fills --output=@"$T/a.npy" --output=@"$T/b.npy" --output=@"$T/c.npy" \
    --output=@"$T/d.bin" --output=@"$T/e.npy" --output=@"$T/f.npy"
  run /usr/bin/python3 -c "
import numpy as np
for n in 'abcef': a = np.load('$T/%s.npy' % n); print(a.dtype, a.shape, a.tolist())
print(np.fromfile('$T/d.bin', '<u2').tolist())"
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '%s\n' 'int32 (4,) [-7, -7, -7, -7]' 'float16 (2,) [1.5, 1.5]' 'bool (3,) [True, True, True]' 'float64 (2,) [0.1, 0.1]' 'int8 (2,) [-1, -1]' '[49184, 49184]')" ]
}

@test "bf16 goes through raw files with an explicit SHAPExbf16" {
  pack host
  bin/vmrun "$T/host.vmfb" --function=id_bf16 --input=2x3xbf16=@$IN/npy/x_bf16.bin --output=@"$T/y.bin"
  cmp "$IN/npy/x_bf16.bin" "$T/y.bin"
  run bin/vmrun "$T/host.vmfb" --function=id_bf16 --input=2x3xbf16=@$IN/npy/x_bf16.bin
  [ "$output" = "2x3xbf16=[1.5 -2.25 3][0 65280 -0.125]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_bf16 --input=2x3xbf16=@$IN/npy/x_bf16.bin --output=@"$T/y.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: '$T/y.npy': bf16 has no .npy dtype (write it raw, to a .bin file)" ]
  run bin/vmrun "$T/host.vmfb" --function=id_bf16 --input=3x3xbf16=@$IN/npy/x_bf16.bin
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: '$IN/npy/x_bf16.bin' does not hold exactly 18 bytes" ]
  run bin/vmrun "$T/host.vmfb" --function=id_bf16 --input=@$IN/npy/x_bf16.bin
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: '$IN/npy/x_bf16.bin' is not an .npy file (give raw data as SHAPExTYPE=@$IN/npy/x_bf16.bin)" ]
}

@test "text inputs: splats, zeros, brackets, booleans, scalars" {
  pack host
  run bin/vmrun "$T/host.vmfb" --function=id_i32 --input='2x3xi32=[1 2 3][4 5 6]'
  [ "$output" = "2x3xi32=[1 2 3][4 5 6]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_i32 --input=2x3xi32
  [ "$output" = "2x3xi32=[0 0 0][0 0 0]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_i1 --input=2x3xi1=true,false,1,0,1,true
  [ "$output" = "2x3xi1=[1 0 1][0 1 1]" ]
  run bin/vmrun "$T/host.vmfb" --function=id_f64 --input=2x3xf64=-0.5
  [ "$output" = "2x3xf64=[-0.5 -0.5 -0.5][-0.5 -0.5 -0.5]" ]
}

@test "wrong inputs name the input and the dimension, exit 1" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  run bin/vmrun "$m" --function=add --input=5xf32=1 --input=1000xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: dimension 0 is 5, the function expects 1000" ]
  run bin/vmrun "$m" --function=linear --input=1x5xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: dimension 1 is 5, the function expects 4" ]
  run bin/vmrun "$m" --function=add --input=1000xf32=1 --input=1000xi32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 1: element type is i32, the function expects f32" ]
  run bin/vmrun "$m" --function=linear --input=4xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: rank is 1, the function expects 2 (1x4xf32)" ]
  run bin/vmrun "$m" --function=add --input=1000xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: @add takes 2 inputs, got 1" ]
  run bin/vmrun "$m" --function=owner --input=1000xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: @owner takes 0 inputs, got 1" ]
}

@test "malformed --input text and missing files are errors naming the input" {
  pack host
  m="$T/host.vmfb"
  run bin/vmrun "$m" --function=two --input=4xf32=1 --input=2x3xi32=1,2
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 1: 2 values for 6 elements" ]
  run bin/vmrun "$m" --function=two --input=4xf32=1,x,3,4
  [ "$output" = "vmrun: error: input 0: 'x' is not a number" ]
  run bin/vmrun "$m" --function=two --input=4xq32=1
  [ "$output" = "vmrun: error: input 0: unknown element type 'q32' in '4xq32'" ]
  run bin/vmrun "$m" --function=two --input=4yxf32=1
  [ "$output" = "vmrun: error: input 0: malformed shape in '4yxf32' (expected e.g. 2x3xf32)" ]
  run bin/vmrun "$m" --function=id_i8 --input=2x3xi8=1,2,3,4,5,300
  [ "$output" = "vmrun: error: input 0: element 5: '300' is out of range for i8" ]
  run bin/vmrun "$m" --function=id_ui8 --input=2x3xui8=-1
  [ "$output" = "vmrun: error: input 0: element 0: '-1' is out of range for ui8" ]
  run bin/vmrun "$m" --function=id_i1 --input=2x3xi1=2
  [ "$output" = "vmrun: error: input 0: '2' is not a boolean (true, false, 1, 0)" ]
  run bin/vmrun "$m" --function=two --input=@"$T/missing.npy"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: input 0: cannot open '$T/missing.npy': No such file or directory" ]
  head -c 100 "$IN/npy/x_f32.npy" > "$T/short.npy"
  run bin/vmrun "$m" --function=id_f32 --input=@"$T/short.npy"
  [ "$output" = "vmrun: error: input 0: '$T/short.npy': truncated .npy header" ]
  head -c 140 "$IN/npy/x_f32.npy" > "$T/short.npy"
  run bin/vmrun "$m" --function=id_f32 --input=@"$T/short.npy"
  [ "$output" = "vmrun: error: input 0: '$T/short.npy': truncated .npy data (expected 24 bytes)" ]
  run bin/vmrun "$m" --threads=0
  [ "$output" = "vmrun: error: --threads: '0' is not a number from 1 to 1024" ]
  run bin/vmrun "$T/nope.vmfb"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: cannot open '$T/nope.vmfb': No such file or directory" ]
}

@test "complex arguments and results: c64 / c128 .npy in and out, raw, printed" {
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null || skip "no numpy"
  pack complex
  run bin/vmpack --dump "$T/complex.vmfb"
  [[ "$output" == *"@id_c64(tensor<2x3xc64>) -> (tensor<2x3xc64>)"* ]]
  [[ "$output" == *"@parts_c128(tensor<3xc128>) -> (tensor<3x2xf64>)"* ]]
  /usr/bin/python3 -c "
import numpy as np
np.save('$T/z.npy', (np.arange(6).reshape(2, 3) - 2.5j * np.arange(6).reshape(2, 3)).astype(np.complex64))
np.save('$T/w.npy', np.array([1 + 2j, -3.5, 0.25j]))"
  bin/vmrun "$T/complex.vmfb" --function=id_c64 --input=@"$T/z.npy" --output=@"$T/y.npy"
  cmp "$T/z.npy" "$T/y.npy"
  run bin/vmrun "$T/complex.vmfb" --function=id_c64 --input=@"$T/z.npy"
  [ "$output" = "2x3xc64=[0+0j 1-2.5j 2-5j][3-7.5j 4-10j 5-12.5j]" ]
  run bin/vmrun "$T/complex.vmfb" --function=parts_c128 --input=@"$T/w.npy"
  [ "$output" = "3x2xf64=[1 2][-3.5 0][0 0.25]" ]
  tail -c 48 "$T/z.npy" > "$T/z.bin"
  run bin/vmrun "$T/complex.vmfb" --function=id_c64 --input=2x3xc64=@"$T/z.bin"
  [ "$output" = "2x3xc64=[0+0j 1-2.5j 2-5j][3-7.5j 4-10j 5-12.5j]" ]
  run bin/vmrun "$T/complex.vmfb" --function=id_c64 --input=@"$T/z.npy" --expected_output=@"$T/z.npy"
  [ "$status" -eq 0 ]
  run bin/vmrun "$T/complex.vmfb" --function=id_c64 --input=2x3xc64=1,2
  [ "$status" -ne 0 ]
  [[ "$output" == *"complex values are read from .npy or raw files only"* ]]
  run bin/vmrun "$T/complex.vmfb" --function=parts_c128 --input=3x2xf64
  [ "$status" -ne 0 ]
  [[ "$output" == *"input 0: element type is f64, the function expects c128"* ]]
  run bin/vmpack "$IN/complex-bad.mlir" -o "$T/bad.vmfb"
  [ "$status" -ne 0 ]
  [[ "$output" == *"a complex argument or result must be [..., 2] of f32 or f64"* ]]
}
