/**
 * The write side: the only code that writes scheduling decisions to the API server.
 * {@link dev.muster.runtime.binding.Binder} binds through {@code pods/{name}/binding} and marks binds in
 * flight in the cache; {@link dev.muster.runtime.binding.Evictor} evicts through {@code policy/v1};
 * {@link dev.muster.runtime.binding.StatusWriter} writes PodGroup and Queue status and Events when they
 * change; {@link dev.muster.runtime.binding.ImpliedObjects} creates the default queue and automatic
 * PodGroups. Kubernetes answers are classified here ({@code ApiResponse.Outcome}): 409 resync, 404 gone,
 * 5xx and timeouts retried with backoff, the rest refused; nothing here throws for an answer. Every
 * request first asks the {@link dev.muster.runtime.binding.WriteFence} (with leader election, the
 * lease's), so a replica that lost its lease sends nothing more, and tells
 * {@link dev.muster.runtime.binding.ApiServerReachability} whether the server answered, so an outage is
 * logged once, by whichever side meets it first.
 */
package dev.muster.runtime.binding;
