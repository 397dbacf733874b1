/**
 * The job controllers against an API server: informers for Volcano Jobs, their pods and PodGroups,
 * PriorityClasses, JobTemplates and JobFlows feed per-object work queues; each request is reconciled
 * by the pure {@link dev.muster.jobs.controller.JobReconciler} or
 * {@link dev.muster.jobs.flow.JobFlowReconciler}, and the plan is written back in its documented
 * order. What {@code muster up} runs beside the scheduler, and {@code muster run --job-controllers}.
 */
package dev.muster.jobs.runtime;
