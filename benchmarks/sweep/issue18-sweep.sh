#!/usr/bin/env bash
# The sweep of issue 18: Philly from several start dates, time scales 0.2-0.5, both --gpus-per-pod modes,
# 48 and 64 nodes of 8 GPUs, three seeds, plus the Alibaba DAG sample; baseline, volcano (Volcano's Helm
# default, Muster's default) and issue 18's configuration (examples/simulate/muster-issue18.conf) side by
# side in each run. Every run writes its
# JSON to OUT/; then one table, one row per run and policy, goes to OUT/table.md. Its "floor / baseline"
# is the average JCT without any waiting over the baseline's: no policy's ratio to the baseline is lower on
# that run, so where it is above 0.7 issue 18's target of 0.7 cannot be met by any scheduler.
#
#   benchmarks/sweep/issue18-sweep.sh OUT [--quick]
#
# --quick runs one start date, one seed and 1,000 jobs per run (about a tenth of the full sweep).
# SWEEP_POLICIES (comma-separated, as --policies takes them) replaces the three policies, so candidate
# configurations can be swept beside the baseline; SWEEP_STARTS (space-separated) replaces the start dates.
# Duration estimates are lognormal:1 (never the trace's durations). The columns: average, p50, p95, p99
# JCT; p99 JCT of the largest 10 % of jobs by GPUs; average queueing; GPU (cpu for Alibaba) allocation;
# stuck jobs; Jain's index; evictions (all, and of the job evicted most); offered load within the window.
set -euo pipefail
out="${1:?usage: issue18-sweep.sh OUT [--quick]}"
quick="${2:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$out"
starts=(2017-10-01T00:00:00 2017-10-15T00:00:00 2017-11-01T00:00:00)
seeds=(1 2 3)
jobs=2000
if [ "$quick" = "--quick" ]; then starts=(2017-10-01T00:00:00); seeds=(1); jobs=1000; fi
if [ -n "${SWEEP_STARTS:-}" ]; then read -r -a starts <<< "$SWEEP_STARTS"; fi
policies="${SWEEP_POLICIES:-baseline,volcano,conf:$root/examples/simulate/muster-issue18.conf}"

cluster() {
    local file="$out/gpu-$1.yaml"
    printf 'pools:\n  - name: gpu\n    count: %s\n    allocatable: {cpu: 64, memory: 512Gi, nvidia.com/gpu: 8}\n' "$1" > "$file"
    echo "$file"
}

run() {
    local name="$1"; shift
    [ -s "$out/$name.json" ] && return 0
    echo "$(date -u +%FT%TZ) $name (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "$root/muster" simulate "$@" --policies "$policies" --duration-estimates lognormal:1 -o json \
        > "$out/$name.json.tmp" 2> "$out/$name.log"
    mv "$out/$name.json.tmp" "$out/$name.json"
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/$name.log"
}

for nodes in 48 64; do
    file="$(cluster "$nodes")"
    for start in "${starts[@]}"; do
        for scale in 0.2 0.3 0.4 0.5; do
            for pods in 8 1; do
                for seed in "${seeds[@]}"; do
                    run "philly-${start%%T*}-n$nodes-s$scale-g$pods-seed$seed" \
                        --workload "philly:$root/traces/philly/philly_jobs_adaptdl.csv" --start "$start" --jobs "$jobs" \
                        --time-scale "$scale" --gpus-per-pod "$pods" --cluster "$file" --seed "$seed"
                done
            done
        done
    done
done
for seed in "${seeds[@]}"; do
    run "alibaba-dag-seed$seed" --workload "alibaba-dag:$root/traces/alibaba_v2018_dag/batch_task_6600_dag_jobs.csv" \
        --cluster "$root/examples/simulate/alibaba-20-nodes.yaml" --time-scale 0.025 --jobs "$jobs" --seed "$seed" \
        --dag-estimates lognormal:1
done

{
    echo "| run | load in window | floor / baseline | policy | avg JCT s | p50 | p95 | p99 | p99 largest 10% | queueing s | alloc % | stuck | Jain | evictions (max/job) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for file in "$out"/*.json; do
        jq -r --arg run "$(basename "$file" .json)" '
            .workload.offeredLoadWithinWindow as $load
            | .policies.baseline.avgJctSeconds as $base
            | (.workload.avgJctWithoutWaitingSeconds / $base * 100 | round / 100) as $floor
            | .policies | to_entries[] | .key as $policy | .value
            | "| \($run) | \($load) | \($floor) | \($policy) | \(.avgJctSeconds | round)"
              + (if $policy == "baseline" then "" else " (\((.avgJctSeconds / $base * 100 | round) - 100) %)" end)
              + " | \(.p50JctSeconds | round) | \(.p95JctSeconds | round) | \(.p99JctSeconds | round)"
              + " | \(.p99LargestJctSeconds | round) | \(.avgQueueingSeconds | round)"
              + " | \((if .gpuAllocation > 0 then .gpuAllocation else .cpuAllocation end) * 1000 | round / 10)"
              + " | \(.stuckJobs) | \(.jainFairness) | \(.evictions) (\(.maxEvictionsPerJob)) |"' "$file"
    done
} > "$out/table.md"
echo "wrote $out/table.md" >&2
