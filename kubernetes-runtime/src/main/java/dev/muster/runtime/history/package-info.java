/**
 * The history of finished jobs that {@code shortestfirst} learns run times from, kept by the leader:
 * {@link dev.muster.runtime.history.GangRuns} notices, cycle by cycle, each gang that ran whole and then
 * succeeded, {@link dev.muster.runtime.history.JobHistoryStore} keeps the newest of them and stores them
 * in a ConfigMap of the scheduler's namespace (encoded by {@link dev.muster.runtime.history.HistoryCodec})
 * so that a restarted scheduler or a new leader goes on from them.
 */
package dev.muster.runtime.history;
