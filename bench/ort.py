#!/usr/bin/env python3
"""ort.py export FILE.py:FACTORY OUT.onnx
ort.py quantize FILE.py:FACTORY IN.onnx OUT.onnx
ort.py FILE.py:FACTORY OUT.onnx THREADS RUNS [int8] - ONNX Runtime's side of `make bench`.

The first form exports the model with torch.onnx.export (PyTorch 2's
default, torch.export-based exporter: it needs onnxscript; the TorchScript
one, dynamo=False, fails on TransformerEncoderLayer under PyTorch 2.14).
The second runs OUT.onnx in an InferenceSession on the CPU execution
provider, ORT_ENABLE_ALL, THREADS intra-op threads, one inter-op thread,
sequential execution, on the factory's inputs: its output must match
PyTorch eager's (bench/eager.py's check_close, else exit 3), then 3
warm-up runs and RUNS timed ones; prints "median_us maxrss_kb".

The quantize form makes ONNX Runtime's own int8 model of IN.onnx, its best
on the CPU for issue 25's int8 row: onnxruntime.quantization's static
quantization (QDQ, int8 weights per channel, uint8 activations),
calibrated on 8 random inputs shaped as the factory's (seed 0).  Run with
int8, its output is not compared with eager's f32 (ORT's quantization
parameters are its own), only required to be finite.
"""
import sys

import numpy as np
import torch

from eager import check_close, load, report


def main():
    if sys.argv[1] == "export":
        module, inputs = load(sys.argv[2])
        with torch.no_grad():
            torch.onnx.export(module.eval(), inputs, sys.argv[3], verbose=False)
        return
    if sys.argv[1] == "quantize":
        quantize(*sys.argv[2:5])
        return
    import onnxruntime as ort

    threads, runs = int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(1)
    module, inputs = load(sys.argv[1])
    with torch.inference_mode():
        want = module(*inputs)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    session = ort.InferenceSession(sys.argv[2], opts, providers=["CPUExecutionProvider"])
    feed = {i.name: x.detach().numpy() for i, x in zip(session.get_inputs(), inputs)}
    if sys.argv[5:] == ["int8"]:
        if not all(np.isfinite(y).all() for y in session.run(None, feed)):
            print("ONNX Runtime int8: a result is not finite", file=sys.stderr)
            sys.exit(1)
    else:
        check_close(session.run(None, feed), want, "ONNX Runtime")
    report(lambda: session.run(None, feed), runs)


def quantize(spec, src, dst):
    """ONNX Runtime's static int8 quantization of src into dst"""
    import onnxruntime as ort
    from onnxruntime import quantization as q

    _, inputs = load(spec)
    names = [i.name for i in ort.InferenceSession(src, providers=["CPUExecutionProvider"]).get_inputs()]
    g = torch.Generator().manual_seed(0)
    batches = [{n: torch.randn(x.shape, generator=g).numpy() for n, x in zip(names, inputs)}
               for _ in range(8)]

    class Reader(q.CalibrationDataReader):
        def __init__(self):
            self.it = iter(batches)

        def get_next(self):
            return next(self.it, None)

    q.quantize_static(src, dst, Reader(), quant_format=q.QuantFormat.QDQ, per_channel=True,
                      activation_type=q.QuantType.QUInt8, weight_type=q.QuantType.QInt8)


if __name__ == "__main__":
    main()
