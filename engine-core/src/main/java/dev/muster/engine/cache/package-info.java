/**
 * Reads the cluster into the engine's immutable {@link dev.muster.engine.model.ClusterSnapshot}.
 * {@link dev.muster.engine.cache.ManifestReader} reads Kubernetes manifests (multi-document YAML,
 * JSON, {@code kind: List}, folders) of Nodes, Pods, PriorityClasses and Volcano's PodGroups, Queues
 * and HyperNodes, and reports every bad object as a {@link dev.muster.engine.cache.ManifestProblem}
 * instead of failing. {@link dev.muster.engine.cache.ClusterInformers} feeds the same objects from
 * fabric8 informers into the thread-safe {@link dev.muster.engine.cache.ClusterCache}, whose
 * snapshots go through the same converters, plus the binds in flight. Kubernetes objects are read
 * as JSON trees; no client type leaves this package.
 */
package dev.muster.engine.cache;
