#!/bin/sh
# The C core's tests under AddressSanitizer and UndefinedBehaviorSanitizer (docs/rules/c_core.md,
# "Sanitizers"). The core (shared/rules/diplomacy/core_src) is built with
# -fsanitize=address,undefined and without NDEBUG (so its assertions are checked) into a copy of
# the checkout in a temporary folder, beside the compiled engine the checkout already has, and
# tests/rules/diplomacy/test_c_core.py runs against that copy. Any out-of-bounds access, use after
# free, signed overflow, misaligned or null access, or failed assertion stops the run with a
# report and a non-zero status. Leaks are not checked: CPython keeps its objects to the end.
#
#   tests/rules/diplomacy/sanitize.sh [PYTHON]      (from anywhere; PYTHON defaults to python3)
#
# It needs the compiled engine built in the checkout (`pip install -e .` with a C compiler), gcc
# or clang with the sanitizer runtimes, and the Python headers. About a minute and a half on two
# cores. Exit status: 0 clean, 1 the tests or a sanitizer failed, 2 it could not be set up.
set -eu

PYTHON=${1:-python3}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
CC=${CC:-gcc}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/entente-sanitize.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail_setup() { echo "sanitize.sh: $*" >&2; exit 2; }

INCLUDE=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])') || fail_setup "no $PYTHON"
SUFFIX=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
[ -f "$INCLUDE/Python.h" ] || fail_setup "no Python headers in $INCLUDE"
ls "$ROOT"/shared/rules/diplomacy/movement*"$SUFFIX" >/dev/null 2>&1 \
    || fail_setup "the compiled engine is not built in $ROOT (pip install -e . with a C compiler)"

# The checkout as git knows it, with the compiled engine's modules (build artefacts, not in git),
# and the file times kept so that build.py finds the compiled engine newer than its sources.
cd "$ROOT"
{ git ls-files shared services tests pyproject.toml setup.py; ls shared/rules/diplomacy/*"$SUFFIX" \
    shared/rules/diplomacy/parser/*"$SUFFIX" 2>/dev/null || true; } \
    | grep -v '/_core\.' | tar --ignore-failed-read -cf - -T - | tar -xpf - -C "$WORK"

RUNTIMES=""
for runtime in libasan.so libubsan.so; do
    found=$("$CC" -print-file-name="$runtime")
    [ -f "$found" ] || fail_setup "$CC has no $runtime (install its sanitizer runtimes)"
    RUNTIMES="$RUNTIMES${RUNTIMES:+:}$found"
done

# The core alone, as setup.py builds it but sanitized, unoptimised enough to report well,
# with every undefined behaviour fatal.
"$CC" -shared -fPIC -O1 -g -fno-omit-frame-pointer -fvisibility=hidden -UNDEBUG \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$INCLUDE" shared/rules/diplomacy/core_src/*.c \
    -o "$WORK/shared/rules/diplomacy/_core$SUFFIX" || fail_setup "the sanitized core did not build"

cd "$WORK"
# The interpreter is not built with ASan, so its runtime is preloaded; detect_leaks=0 because
# CPython frees little at exit; abort_on_error gives a core-style stop with the report.
export LD_PRELOAD="$RUNTIMES"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$WORK"
unset ENTENTE_PURE_PYTHON ENTENTE_NO_C_CORE

# The copy must really run the sanitized core: a skipped comparison would prove nothing.
"$PYTHON" -c '
import sys
from shared.rules.diplomacy import c_core, _core
assert c_core.MOVEMENT_DOCUMENT is not None, "the sanitized core is not in use: " + str(c_core.running_build())
assert _core.__file__.startswith(sys.argv[1]), _core.__file__
print("sanitize.sh: the C core under ASan and UBSan:", _core.__file__)
' "$WORK" || fail_setup "the sanitized core does not load"

status=0
# one process (-n 0): it runs beside the suite in CI, where xdist's workers for nine tests cost
# more CPU than they save time (26.3 CPU s against 21.1, 2026-12-07)
"$PYTHON" -m pytest tests/rules/diplomacy/test_c_core.py -q -p no:cacheprovider -rs -n 0 || status=1
exit $status
