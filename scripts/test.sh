#!/usr/bin/env bash
# Install Twin Table with its test extras into .venv and run the whole test suite.
# pytest exits 5 when it collects no test: that is a broken run here, never a pass.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q -e '.[test]'
# The fifth game, a plug-in package of its own (examples/tricks): installed the way a
# designer's game would be, so the suite checks that a game outside the tree plays.
.venv/bin/pip install -q -e examples/tricks
# The sixth, a game with nothing hidden and no chance (examples/pebbles): the kit's proof.
.venv/bin/pip install -q -e examples/pebbles
# The suite starts a hundred-odd servers and workers: each reads the package compiled,
# also on a machine with PYTHONDONTWRITEBYTECODE set, where every process compiled it
# from source again (0.6 s a start here).
.venv/bin/python -m compileall -q src examples/tricks/src examples/pebbles/src >/dev/null
# The browser tests drive Debian's Chromium (Playwright's own download is not used).
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
# The network fault tests run workers in network namespaces (`ip`, Debian's iproute2).
if ! command -v ip >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && apt-get install -y -qq iproute2 >/dev/null
fi
# The TLS deployment test (tests/deploy/test_nginx_tls.py) runs Debian's nginx.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] \
    && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && apt-get install -y -qq nginx >/dev/null
fi
# Two test processes (pytest-xdist), a test file each at a time: many tests wait on
# servers, browsers and timers, so the second one uses the idle time (TWINTABLE_TEST_WORKERS=0
# runs in one process).
workers="${TWINTABLE_TEST_WORKERS:-2}"
parallel=()
if [ "$workers" != "0" ]; then parallel=(-n "$workers" --dist loadfile); fi
set +e
# The slowest tests are named at the end, to keep the suite's time in view.
.venv/bin/pytest "${parallel[@]}" --durations=25 "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: failing the run" >&2
  exit 1
fi
exit "$status"
