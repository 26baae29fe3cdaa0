# Sourced by the valgrind test scripts: $bin (the iogauge built) and $src
# (the source tree), or a skip (77) without valgrind or in an ASan build,
# which has its own checker and which valgrind cannot run.
bin=$(realpath "${IOGAUGE_BIN:?}")
src=${IOGAUGE_SRC:?}
command -v valgrind >/dev/null || { echo "SKIP: no valgrind"; exit 77; }
if ASAN_OPTIONS=help=1 "$bin" --version 2>&1 | grep -q AddressSanitizer; then
	echo "SKIP: an ASan build"
	exit 77
fi
