/**
 * {@code flow.volcano.sh/v1alpha1} JobTemplate and JobFlow: a JobFlow names templates as stages with
 * {@code dependsOn.targets}; {@link dev.muster.jobs.flow.JobFlowReconciler} creates each
 * stage's Job from its template once every target has completed, tracks the jobs in the flow's
 * status, and stops the descendants of a failed stage. Pure logic, like {@code jobs.controller}.
 */
package dev.muster.jobs.flow;
