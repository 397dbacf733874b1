/**
 * The engine against an API server, assembled by Guice: {@link dev.muster.runtime.KubernetesModule}
 * binds the one client, {@link dev.muster.runtime.RuntimeModule} the cache and its informers, the
 * loop, the writers, metrics, health, leader election and the set of contributed controllers, and
 * {@link dev.muster.runtime.KubernetesRuntime} starts and stops them. {@code muster run} and
 * {@code muster up} install the same modules; a bridge adds its own (see {@code controller}).
 */
package dev.muster.runtime;
