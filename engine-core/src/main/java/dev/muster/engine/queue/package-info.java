/**
 * Queue quota shared by the queue plugins (proportion, capacity): per-queue accounting for a session,
 * what a job contributes to it, and the quota arithmetic with Volcano's exact comparisons.
 */
package dev.muster.engine.queue;
