#!/bin/sh
# The user-problem examples and a tensor-kappa solve on NVIDIA, the reference
# path and PoCL in one run (GPU machine, from the project root, with the
# build carried in .devbuild): their outputs and errors must agree.
. .device/env.sh && export LD_LIBRARY_PATH=$PWD/.devbuild:$LD_LIBRARY_PATH
h=.devbuild/hdgcl
for d in nvidia ref pocl; do
  echo "== $d anisotropic"; $h solve --device $d --problem-file examples/anisotropic.json --mesh examples/anisotropic.msh --order 3 2>&1 | grep -E "^output|error"
  echo "== $d plate-hole"; $h solve --device $d --problem-file examples/plate-hole.json --mesh examples/plate-hole.msh --order 2 --restart 60 2>&1 | grep -E "^output|error|^solve"
  echo "== $d tensor quad"; $h solve --device $d --problem user --kappa "[[2, 0.7], [0.7, 1]]" --exact "sin(pi*x)*sin(pi*y)" --f "3*pi*pi*sin(pi*x)*sin(pi*y) - 1.4*pi*pi*cos(pi*x)*cos(pi*y)" --bc-default dirichlet --mesh quad:8 --order 3 2>&1 | grep -E "^errors|error"
  echo "== $d variable"; $h solve --device $d --problem-file examples/variable-coefficients.json --mesh square:8 --order 4 2>&1 | grep -E "^errors|error"
done
