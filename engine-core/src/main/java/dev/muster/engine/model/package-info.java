/**
 * The scheduler's plain values: jobs (PodGroups) and their tasks (pods), nodes, queues and resource
 * quantities, the jobs that finished most recently ({@link dev.muster.engine.model.JobHistory}), and the
 * immutable {@link dev.muster.engine.model.ClusterSnapshot} one session works on.
 * Nothing here knows Kubernetes' client types; {@code cache/} converts them.
 */
package dev.muster.engine.model;
