/**
 * The actions of a scheduling session, one class each, run in the configured order: enqueue admits
 * jobs, allocate places gangs, backfill places best-effort tasks, preempt and reclaim evict to make
 * room within and across queues.
 */
package dev.muster.engine.actions;
