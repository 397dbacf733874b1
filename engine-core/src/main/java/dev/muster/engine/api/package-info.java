/**
 * The vocabulary Muster shares with Kubernetes, Volcano and the projects it bridges: the API groups,
 * kinds, annotations and labels it reads and writes ({@link dev.muster.engine.api.SchedulingApi}),
 * and Go's duration syntax ({@link dev.muster.engine.api.GoDuration}). Every module uses these; none
 * defines its own copy.
 */
package dev.muster.engine.api;
