/**
 * Reads the cluster into the engine's immutable {@link dev.muster.engine.model.ClusterSnapshot}.
 * {@link dev.muster.engine.cache.ManifestReader} reads Kubernetes manifests (multi-document YAML,
 * JSON, {@code kind: List}, folders) of Nodes, Pods, PriorityClasses, PodGroups (Volcano's,
 * scheduler-plugins' and Kubernetes' Workload API's), and Volcano's Queues and HyperNodes, and reports every bad object as a {@link dev.muster.engine.cache.ManifestProblem}
 * instead of failing. The thread-safe {@link dev.muster.engine.cache.ClusterCache} holds the same
 * objects as a running cluster's informers deliver them (the Kubernetes runtime feeds it), and its
 * snapshots go through the same converters, plus the binds in flight. Kubernetes objects are read as
 * JSON trees: this module has no Kubernetes client on its classpath.
 */
package dev.muster.engine.cache;
