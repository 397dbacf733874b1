/**
 * The cluster {@code muster up} runs in one JVM: an API server on loopback (fabric8's CRUD mock with
 * Binding, Eviction and the discovery documents kubectl needs), simulated nodes, and a simulated
 * kubelet that runs bound pods for the duration they declare, or, for the pods of Argo's resource templates, runs Argo's
 * executor in them as local processes ({@link dev.muster.embedded.ArgoExecutorPods}). Nothing here schedules: the scheduler
 * connects to {@link dev.muster.embedded.EmbeddedApiServer} as it would to any API server.
 */
package dev.muster.embedded;
