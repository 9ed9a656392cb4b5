#!/bin/sh
# Installs the build tree into a temporary prefix (cmake --install --prefix),
# checks the installed files and the installed CLI, then builds and runs
# tests/install/consumer.c twice: as a CMake project using
# find_package(hdgcl CONFIG) and hdgcl::hdgcl, and with the compiler flags
# from `pkg-config --cflags --libs hdgcl`.
# Usage: install_consumer.sh BUILD_DIR SOURCE_DIR LIBDIR VERSION C_COMPILER [FLAGS]
# FLAGS (e.g. -fsanitize=address,undefined in a sanitizer build) are added to
# the consumer's compile and link lines: a sanitized libhdgcl needs them.
set -u
build=$1 src=$2 libdir=$3 version=$4 cc=$5 extra=${6:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }

cmake --install "$build" --prefix "$prefix" > "$dir/install.log" 2>&1 && ok "cmake --install" \
  || { bad "cmake --install"; cat "$dir/install.log"; exit 1; }
for f in include/hdgcl/hdgcl.h include/hdgcl/device.h include/hdgcl/solver.h bin/hdgcl \
         "$libdir/cmake/hdgcl/hdgclConfig.cmake" \
         "$libdir/cmake/hdgcl/hdgclConfigVersion.cmake" "$libdir/cmake/hdgcl/hdgclTargets.cmake" \
         "$libdir/pkgconfig/hdgcl.pc"; do
  [ -e "$prefix/$f" ] || bad "installed file $f missing"
done
# A shared library, or a static one (BUILD_SHARED_LIBS=OFF): then the
# consumer needs hdgcl's own dependencies, from the CMake package's
# find_dependency calls or from pkg-config --static.
if [ -e "$prefix/$libdir/libhdgcl.so" ]; then static=""; library=libhdgcl.so
elif [ -e "$prefix/$libdir/libhdgcl.a" ]; then static="--static"; library=libhdgcl.a
else bad "installed library $libdir/libhdgcl.so or .a missing"; static=""; library=none; fi
# Private headers stay private.
[ ! -e "$prefix/include/hdgcl/context.h" ] && [ ! -e "$prefix/include/context.h" ] \
  && ok "only the public headers" || bad "private headers installed"
# The installed CLI finds the installed library (RPATH $ORIGIN/../lib).
"$prefix/bin/hdgcl" solve --device ref --mesh square:2 --order 1 --quiet && ok "installed hdgcl solve --device ref" \
  || bad "installed hdgcl solve --device ref"
"$prefix/bin/hdgcl" --version 2>&1 | grep -q "$version" && ok "installed hdgcl --version" \
  || bad "installed hdgcl --version ($("$prefix/bin/hdgcl" --version 2>&1))"

# 1. CMake package.
if cmake -S "$src/tests/install" -B "$dir/cmake-build" -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="$extra" \
     -DCMAKE_EXE_LINKER_FLAGS="$extra" > "$dir/cmake.log" 2>&1 \
   && cmake --build "$dir/cmake-build" > "$dir/build.log" 2>&1; then
  found=$(sed -n 's/^hdgcl_DIR:PATH=//p' "$dir/cmake-build/CMakeCache.txt")
  [ "$found" = "$prefix/$libdir/cmake/hdgcl" ] && ok "find_package found the installed package" \
    || bad "find_package found hdgcl_DIR=$found, not $prefix/$libdir/cmake/hdgcl"
  "$dir/cmake-build/consumer" "$version" > "$dir/run.log" 2>&1 && ok "find_package consumer runs" \
    || { bad "find_package consumer runs"; cat "$dir/run.log"; }
  # It links the installed library, not the build tree's.
  if [ -z "$static" ]; then
    ldd "$dir/cmake-build/consumer" | grep -q "$prefix/$libdir/libhdgcl.so" && ok "find_package consumer uses the installed library" \
      || { bad "find_package consumer uses the installed library"; ldd "$dir/cmake-build/consumer"; }
  else
    grep -q "$prefix/$libdir/libhdgcl.a" "$dir/cmake-build/CMakeFiles/consumer.dir/link.txt" \
      && ok "find_package consumer links the installed $library" || bad "find_package consumer links the installed $library"
  fi
else
  bad "find_package consumer builds"; cat "$dir/cmake.log" "$dir/build.log" 2>/dev/null
fi
# Version requirements are honoured.
mkdir "$dir/too-new"
printf 'cmake_minimum_required(VERSION 3.20)\nproject(too_new LANGUAGES C)\nfind_package(hdgcl 99.0 CONFIG REQUIRED)\n' > "$dir/too-new/CMakeLists.txt"
cmake -S "$dir/too-new" -B "$dir/too-new/build" -DCMAKE_PREFIX_PATH="$prefix" > "$dir/too-new.log" 2>&1 \
  && bad "find_package(hdgcl 99.0) should fail" || ok "find_package(hdgcl 99.0) refused"

# 2. pkg-config.
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
[ "$(pkg-config --modversion hdgcl)" = "$version" ] && ok "pkg-config --modversion" || bad "pkg-config --modversion"
flags=$(pkg-config $static --cflags --libs hdgcl)
# The -I and -L directories are the prefix's (the file is relocatable: ${pcfiledir}/../..).
inc=$(pkg-config --cflags-only-I hdgcl | sed 's/^ *-I//; s/ *$//')
lib=$(pkg-config --libs-only-L hdgcl | sed 's/^ *-L//; s/ .*//')
[ "$(cd "$inc" 2>/dev/null && pwd -P)" = "$(cd "$prefix/include" && pwd -P)" ] \
  && [ "$(cd "$lib" 2>/dev/null && pwd -P)" = "$(cd "$prefix/$libdir" && pwd -P)" ] \
  && ok "pkg-config flags point into the prefix ($flags)" || bad "pkg-config flags ($flags)"
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $extra "$src/tests/install/consumer.c" -o "$dir/consumer-pc" $flags \
  > "$dir/cc.log" 2>&1 && ok "pkg-config consumer builds" || { bad "pkg-config consumer builds"; cat "$dir/cc.log"; }
LD_LIBRARY_PATH="$prefix/$libdir" "$dir/consumer-pc" "$version" > "$dir/run-pc.log" 2>&1 \
  && ok "pkg-config consumer runs" || { bad "pkg-config consumer runs"; cat "$dir/run-pc.log"; }
exit $fail
