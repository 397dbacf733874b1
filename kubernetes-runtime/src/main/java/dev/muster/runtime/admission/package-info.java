/**
 * Read-only questions a controller may ask the scheduler about admission, answered with the engine's
 * own enqueue action on the cluster as the scheduler's cache has it: nothing is written, nothing of the
 * cache changes. A bridge that holds work back until its queue can take it (the Argo bridge's workflow
 * admission) asks here instead of redoing the queue arithmetic.
 */
package dev.muster.runtime.admission;
