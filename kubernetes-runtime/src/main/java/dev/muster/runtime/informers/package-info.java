/**
 * The read side against an API server: {@link dev.muster.runtime.informers.CacheInformers} lists
 * and watches Nodes, Pods, PriorityClasses, both PodGroup APIs, Queues and HyperNodes with fabric8
 * informers and feeds each object, as a JSON tree, into the engine's
 * {@link dev.muster.engine.cache.ClusterCache}; it reports a kind synced only once its handler has
 * received every listed object ({@link dev.muster.runtime.informers.InitialDelivery}).
 * {@link dev.muster.runtime.informers.UntypedClient} reads watch events straight into the generic
 * form, and {@link dev.muster.runtime.informers.KubernetesResources} says how the client addresses
 * each kind.
 */
package dev.muster.runtime.informers;
