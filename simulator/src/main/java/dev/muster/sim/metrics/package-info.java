/**
 * What a simulation run measured: per-job and per-gang records, allocation and queue shares over
 * time, and the summary numbers computed from them (JCT percentiles, queueing, makespan,
 * allocation, stuck gangs and their waste, Jain's fairness, offered load, where the two roles of a
 * gang sat relative to each other).
 */
package dev.muster.sim.metrics;
