#!/bin/sh
# Builds iolens from its release tarball and checks that it installs and
# cleans up, as `make distcheck` does, in a build the test suite uses
# anyway (scripts/run-tests.sh builds its Open MPI stage this way, so that
# the tarball costs no build of its own):
#
#   scripts/tarball-check.sh build DIR [CONFIGURE_ARG...]
#       In the empty directory DIR: `make dist` from a configure of this
#       tree of its own (DIR/dist), the tarball unpacked and made read-only
#       (DIR/iolens-VERSION: a file the build or the tests write into the
#       source tree fails), configured out of tree with --prefix=DIR/inst
#       and the arguments given (DIR/build), and `make all`.
#   scripts/tarball-check.sh install DIR
#       After `build` (and the tests, if any): make install and
#       installcheck, make uninstall leaving no file under DIR/inst, and
#       make distclean leaving no file in DIR/build.
#
# Prints the tarball's path last on success of `build`; exits nonzero, with
# what went wrong, on any failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
    echo "usage: tarball-check.sh build DIR [CONFIGURE_ARG...] | install DIR" >&2
    exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$(cd "$2" && pwd)
shift 2

# The one unpacked source tree in DIR.
source_tree() {
    set -- "$dir"/iolens-*/configure
    [ -f "$1" ] || { echo "tarball-check: no unpacked tarball in $dir" >&2; exit 1; }
    dirname "$1"
}

# require_empty DIR WHAT: fails, listing them, if files are left under DIR
# (WHAT says after what).
require_empty() {
    left=$(find "$1" -type f -print)
    if [ -n "$left" ]; then
        echo "tarball-check: $2 left these files in $1:" >&2
        echo "$left" | sed 's/^/  /' >&2
        exit 1
    fi
}

case $cmd in
build)
    mkdir "$dir/dist" "$dir/build" "$dir/inst"
    (cd "$dir/dist" && "$top/configure" -q && make dist-gzip)
    set -- "$@" --prefix="$dir/inst"
    tarball=$(ls "$dir"/dist/iolens-*.tar.gz)
    (cd "$dir" && tar xzf "$tarball")
    src=$(source_tree)
    chmod -R a-w "$src"
    cd "$dir/build"
    "$src/configure" -q "$@"
    make -j2 all
    echo "$tarball"
    ;;
install)
    cd "$dir/build"
    make install
    make installcheck
    make uninstall
    require_empty "$dir/inst" "make uninstall"
    make distclean
    require_empty "$dir/build" "make distclean"
    echo "tarball-check: installed, uninstalled and cleaned without a file left"
    ;;
*)
    usage
    ;;
esac
