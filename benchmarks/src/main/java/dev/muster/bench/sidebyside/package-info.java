/**
 * Muster beside kube-scheduler on a real kube-apiserver with KWOK's fake nodes: the same pods for both
 * (in gangs for Muster), pods bound per second end to end, and the CPU each scheduler and the API server
 * used. A program, not a test: {@code benchmarks/side-by-side/run}; figures in {@code benchmarks/README.md}.
 */
package dev.muster.bench.sidebyside;
