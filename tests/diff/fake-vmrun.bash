# fake_vmrun PY CODE [GLOB]: $T/bin, the tools with a vmrun that runs PY's
# CODE (numpy as np) on each result it writes whose path matches GLOB
# (default *.npy), at path p -- for the testers to show that they catch
# what CODE does to a result.
fake_vmrun() {
  mkdir -p "$T/bin"
  for t in fx-import torch-opt torch-lower codegen vmpack; do ln -sf "$PWD/bin/$t" "$T/bin/$t"; done
  cat > "$T/bin/vmrun" <<SH
#!/bin/sh
"$PWD/bin/vmrun" "\$@" || exit
for a; do
  case \$a in --output=@${3:-*.npy}) "$1" -c 'import sys, numpy as np
p = sys.argv[1]
$2' "\${a#--output=@}";; esac
done
SH
  chmod +x "$T/bin/vmrun"
}

# moving_vmrun PY: fake_vmrun adding three times (its largest magnitude
# + 1) to the first element of the first result (y0.npy: fxrun's name),
# for the model fuzzers (convfuzz.py, qfuzz.py)
moving_vmrun() {
  fake_vmrun "$1" 'y = np.load(p); y.flat[0] += 3 * (float(np.abs(y).max()) + 1); np.save(p, y)' '*y0.npy'
}
