#!/usr/bin/env python3
"""ort.py export FILE.py:FACTORY OUT.onnx
ort.py FILE.py:FACTORY OUT.onnx THREADS RUNS - ONNX Runtime's side of `make bench`.

The first form exports the model with torch.onnx.export (PyTorch 2's
default, torch.export-based exporter: it needs onnxscript; the TorchScript
one, dynamo=False, fails on TransformerEncoderLayer under PyTorch 2.14).
The second runs OUT.onnx in an InferenceSession on the CPU execution
provider, ORT_ENABLE_ALL, THREADS intra-op threads, one inter-op thread,
sequential execution, on the factory's inputs: its output must match
PyTorch eager's (bench/eager.py's check_close, else exit 3), then 3
warm-up runs and RUNS timed ones; prints "median_us maxrss_kb".
"""
import sys

import torch

from eager import check_close, load, report


def main():
    if sys.argv[1] == "export":
        module, inputs = load(sys.argv[2])
        with torch.no_grad():
            torch.onnx.export(module.eval(), inputs, sys.argv[3], verbose=False)
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
    check_close(session.run(None, feed), want, "ONNX Runtime")
    report(lambda: session.run(None, feed), runs)


if __name__ == "__main__":
    main()
