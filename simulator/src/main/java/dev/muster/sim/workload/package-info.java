/**
 * Workloads for the simulator: jobs made of gangs, with arrival times, durations and dependencies,
 * read from public traces (Philly, Alibaba v2018 DAG, Alibaba openb, Alibaba's 2025 DLRM serving apps) or
 * generated. Each loader
 * documents how a trace row becomes pods.
 */
package dev.muster.sim.workload;
