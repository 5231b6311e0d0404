#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) from the registry's seeds, with the memory
# limits of FUZZING.md; fails on any finding. `bash .ci/fuzz.sh 3600 codec_md2` runs one
# target for an hour. New corpus entries go to fuzz/corpus/<target>/ (not committed);
# findings to fuzz/artifacts/<target>/. FUZZ_RUNS=2100000 bounds each target by executions;
# FUZZ_TIMEOUT=60 (default 10 s) lets a campaign run niced beside builds without starvation
# passing for a hang.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-20}"
shift || true
cargo run -q --release -p retromodel --example fuzz_seeds -- fuzz/seeds
cd fuzz
cargo +nightly fuzz build -s none -a -O >/dev/null 2>&1 || cargo +nightly fuzz build -s none -a -O
targets=("$@")
# FUZZ_RUNS=N stops each target after N executions (the campaign); the time still caps it.
extra=()
[ -z "${FUZZ_RUNS:-}" ] || extra+=("-runs=$FUZZ_RUNS")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
[ ${#targets[@]} -gt 0 ] || { echo "cargo fuzz list found no targets"; exit 1; }
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  # -max_len 65536: inputs up to 64 KiB, so 64 MiB + 16 x size stays below ~65 MiB of heap,
  # which the targets' counting allocator enforces exactly; the RSS limit adds the process's
  # own ~40 MiB (binary, libFuzzer's corpus and counters).
  set +e
  # A parser's own target (parse_X, without seeds of its own) starts from its codec
  # target's seeds and corpus too (read only: new entries go to corpus/parse_X).
  inputs=("corpus/$t" "seeds/$t")
  if [[ "$t" == parse_* && ! -d "seeds/$t" && -d "seeds/codec_${t#parse_}" ]]; then
    inputs=("corpus/$t" "seeds/codec_${t#parse_}")
    [ ! -d "corpus/codec_${t#parse_}" ] || inputs+=("corpus/codec_${t#parse_}")
  fi
  mkdir -p "${inputs[@]}"
  cargo +nightly fuzz run -s none -a -O "$t" "${inputs[@]}" -- \
    -max_total_time="$secs" -max_len=65536 -rss_limit_mb=160 -malloc_limit_mb=65 \
    -timeout="${FUZZ_TIMEOUT:-10}" -print_final_stats=1 -artifact_prefix="artifacts/$t/" "${extra[@]}" > "target/$t.log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "target/$t.log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "target/$t.log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
  echo "$t: $execs executions, coverage $cov, exit $rc"
  # The record FUZZING.md's campaign table is checked against (issue 45).
  [ -s campaign.tsv ] || printf 'date\tcommit\ttarget\tseconds\truns_limit\texecutions\tcoverage\texit\n' > campaign.tsv
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo -)" \
    "$t" "$secs" "${FUZZ_RUNS:--}" "$execs" "$cov" "$rc" >> campaign.tsv
  if [ "$rc" -ne 0 ]; then
    tail -n 40 "target/$t.log"
    exit 1
  fi
  # A target that ran nothing was not tested (issue 45): fail rather than pass.
  if [ "${execs:-0}" -eq 0 ]; then
    tail -n 40 "target/$t.log"
    echo "$t: no executions counted"
    exit 1
  fi
done
