/**
 * The write side: the only code that writes scheduling decisions to the API server.
 * {@link dev.muster.runtime.binding.Binder} binds through {@code pods/{name}/binding} and marks binds in
 * flight in the cache; {@link dev.muster.runtime.binding.Evictor} evicts through {@code policy/v1};
 * {@link dev.muster.runtime.binding.StatusWriter} writes PodGroup and Queue status and Events when they
 * change; {@link dev.muster.runtime.binding.ClusterControllers} creates the default queue and automatic
 * PodGroups. Kubernetes answers are classified here ({@code ApiResponse.Outcome}): 409 resync, 404 gone,
 * 5xx and timeouts retried with backoff, the rest refused; nothing here throws for an answer.
 */
package dev.muster.runtime.binding;
