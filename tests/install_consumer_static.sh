#!/bin/sh
# install_consumer.sh on a static libhdgcl: configures and builds the library
# and CLI with BUILD_SHARED_LIBS=OFF in a temporary build tree, then installs
# it and builds the consumer against it (find_package must bring CLBlast,
# hwloc, OpenCL and libm along; pkg-config --static likewise).
# Usage: install_consumer_static.sh SOURCE_DIR LIBDIR VERSION C_COMPILER
set -u
src=$1 libdir=$2 version=$3 cc=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! cmake -S "$src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
       -DHDGCL_BUILD_TESTS=OFF -DCMAKE_C_COMPILER="$cc" -DCMAKE_INSTALL_LIBDIR="$libdir" \
       > "$dir/configure.log" 2>&1 \
   || ! cmake --build "$dir/build" -j2 --target hdgcl hdgcl_cli > "$dir/build.log" 2>&1; then
  echo "FAIL static build"; cat "$dir/configure.log" "$dir/build.log" 2>/dev/null | tail -40
  exit 1
fi
[ -e "$dir/build/host/libhdgcl.a" ] || { echo "FAIL no static libhdgcl.a built"; exit 1; }
sh "$src/tests/install_consumer.sh" "$dir/build" "$src" "$libdir" "$version" "$cc"
