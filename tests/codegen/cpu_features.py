"""codegen --cpu=NAME's recorded instruction sets against clang-16's
-march=NAME, for every x86-64 CPU model of LLVM 16 (llc-16 -mcpu=help).

    cpu_features.py CODEGEN INPUT.mlir

For each model codegen takes, the features it records in the module
(fxvm.features) must be those of clang's predefined macros (__AVX512F__,
__AMX_TILE__, ..), among the instruction sets codegen tracks; a model it
refuses must be refused with its message (no 64-bit mode, or instruction
sets codegen does not know).  Prints one line per model that differs and
the count of models compared."""
import re
import subprocess
import sys

TRACKED = ["cx16", "sahf", "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "sse4a", "avx", "avx2",
           "fma", "fma4", "xop", "f16c", "bmi", "bmi2", "lzcnt", "movbe", "avx512f", "avx512bw",
           "avx512cd", "avx512dq", "avx512vl", "avx512vnni", "avx512bf16", "avx512fp16",
           "avx512ifma", "avx512vbmi", "avx512vbmi2", "avx512bitalg", "avx512vpopcntdq",
           "avx512vp2intersect", "avxvnni", "amx-tile", "amx-int8", "amx-bf16", "amx-fp16",
           "gfni", "vaes", "vpclmulqdq"]
# where the runtime cannot check what the model has (AVX-512ER, PF)
UNCHECKABLE = {"knl", "knm"}


def macro(f):
    return {"cx16": "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16", "sahf": "__LAHF_SAHF__"}.get(
        f, "__" + f.upper().replace(".", "_").replace("-", "_") + "__")


def clang_features(cpu):
    r = subprocess.run(["clang-16", "--target=x86_64-linux-gnu", "-march=" + cpu, "-dM", "-E",
                        "-x", "c", "/dev/null"], capture_output=True, text=True)
    if r.returncode:
        return None
    defined = {line.split()[1] for line in r.stdout.splitlines() if line.startswith("#define")}
    return {f for f in TRACKED if macro(f) in defined}


def main():
    codegen, mlir = sys.argv[1], sys.argv[2]
    text = subprocess.run(["llc-16", "-march=x86-64", "-mcpu=help"], capture_output=True,
                          text=True).stderr
    cpus = [line.split()[0] for line in text.split("Available features")[0].splitlines()[1:]
            if line.strip()]
    bad = compared = 0
    for cpu in cpus:
        r = subprocess.run([codegen, "--cpu=" + cpu, mlir], capture_output=True, text=True)
        want = clang_features("x86-64" if cpu == "generic" else cpu)   # clang has no "generic"
        if r.returncode:
            ok = "has no 64-bit mode" in r.stderr or (
                cpu in UNCHECKABLE and "does not know its instruction sets" in r.stderr)
            if not ok:
                print(f"{cpu}: refused: {r.stderr.strip()}")
                bad += 1
            continue
        if cpu in UNCHECKABLE or want is None:
            print(f"{cpu}: compiled, but {'the runtime cannot check it' if want else 'clang refuses it'}")
            bad += 1
            continue
        m = re.search(r'fxvm.features = "([^"]*)"', r.stdout)
        got = {f[1:] for f in m.group(1).split(",") if f} if m else None
        compared += 1
        if got != want:
            print(f"{cpu}: codegen records {sorted(got or [])}, clang-16 has {sorted(want)}")
            bad += 1
    print(f"{compared} CPU models compared, {bad} differ")
    return 1 if bad or compared < 40 else 0


if __name__ == "__main__":
    sys.exit(main())
