#!/usr/bin/env bash
# Runs every protocol and match integration test binary N times in a row
# (default 50) and counts the failures: the "50-run loop" of issue 9.
#
#   scripts/repeat_tests.sh [N] [-- ARGS...]
#
# The test binaries (tests/protocol_*.rs and tests/match*.rs) are built once
# with `cargo test --release --no-run`, then each is run N times from the
# crate root, as cargo runs them; ARGS go to every run (for example
# `-- --test-threads=1`). The output of each failing run is kept in
# $LOG_DIR (default target/repeat-logs/<date>). Each run has a hang guard of
# $RUN_TIMEOUT seconds (default 600); a run past it counts as a failure.
# One summary line per binary:
#
#   protocol_tcp: 50 runs, 0 failures, median 1.6 s
#
# Exits 0 when every run passed, 1 when any failed, 2 when the build failed.
# Bash and coreutils only.
set -u

n=50
if [[ $# -gt 0 && $1 != -- ]]; then
  n=$1
  shift
fi
if [[ $# -gt 0 && $1 == -- ]]; then
  shift
fi
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [N] [-- ARGS...]  (N a positive number, got '$n')" >&2
  exit 2
fi
extra=("$@")

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
run_timeout=${RUN_TIMEOUT:-600}
log_dir=${LOG_DIR:-$root/target/repeat-logs/$(date +%Y%m%d-%H%M%S)}

# The test files to repeat.
names=()
for f in tests/protocol_*.rs tests/match*.rs; do
  [[ -f $f ]] || continue
  b=${f#tests/}
  names+=("${b%.rs}")
done
if [[ ${#names[@]} -eq 0 ]]; then
  echo "no tests/protocol_*.rs or tests/match*.rs here ($root)" >&2
  exit 2
fi

# Build once; cargo's JSON messages name each test executable.
test_args=()
for t in "${names[@]}"; do
  test_args+=(--test "$t")
done
echo "building ${names[*]} (release) ..." >&2
messages=$(cargo test --release --no-run --message-format=json "${test_args[@]}")
status=$?
if [[ $status -ne 0 ]]; then
  echo "cargo test --no-run failed (status $status)" >&2
  exit 2
fi
declare -A exe
while IFS=' ' read -r name path; do
  [[ -n $name ]] && exe[$name]=$path
done < <(printf '%s\n' "$messages" |
  sed -n 's/.*"target":{"kind":\["test"\][^}]*"name":"\([^"]*\)".*"executable":"\([^"]*\)".*/\1 \2/p')

# Seconds with one decimal from milliseconds.
secs() {
  printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

export CARGO_MANIFEST_DIR=$root
any_failed=0
summary=()
for t in "${names[@]}"; do
  bin=${exe[$t]:-}
  if [[ -z $bin || ! -x $bin ]]; then
    echo "$t: no executable found in cargo's output" >&2
    summary+=("$t: not built")
    any_failed=1
    continue
  fi
  failures=0
  times=()
  for ((i = 1; i <= n; i++)); do
    out=$(mktemp)
    start=$(date +%s%N)
    timeout --kill-after=10 "$run_timeout" "$bin" "${extra[@]}" >"$out" 2>&1
    rc=$?
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    times+=("$ms")
    if [[ $rc -ne 0 ]]; then
      failures=$((failures + 1))
      mkdir -p "$log_dir"
      log=$log_dir/$t-run$i.log
      {
        echo "# $bin ${extra[*]}"
        echo "# run $i of $n, exit status $rc$([[ $rc -eq 124 || $rc -eq 137 ]] && echo " (timed out after ${run_timeout} s)"), $(secs "$ms") s"
        cat "$out"
      } >"$log"
      echo "$t: run $i failed (status $rc), log in $log" >&2
    fi
    rm -f "$out"
    [[ -t 2 ]] && printf '\r%s: %d/%d runs, %d failures' "$t" "$i" "$n" "$failures" >&2
  done
  [[ -t 2 ]] && printf '\n' >&2
  median=$(printf '%s\n' "${times[@]}" | sort -n | head -n $(((n + 1) / 2)) | tail -n 1)
  line="$t: $n runs, $failures failures, median $(secs "$median") s"
  summary+=("$line")
  [[ $failures -eq 0 ]] || any_failed=1
done

printf '%s\n' "${summary[@]}"
if [[ $any_failed -ne 0 ]]; then
  echo "FAILED (logs in $log_dir)"
  exit 1
fi
exit 0
