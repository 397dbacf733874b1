/**
 * The Argo Workflows bridge: a template whose pod metadata carries {@code muster.dev/gang: "true"} has
 * each of its fan-outs (the pods under one StepGroup or DAG TaskGroup of the Workflow's
 * {@code status.nodes}) scheduled as one gang. The bridge reads Workflows and their pods, writes one
 * {@code scheduling.volcano.sh/v1beta1} PodGroup per fan-out and the group annotation on its pods. A
 * workflow submitted suspended that asks for admission is resumed once the scheduler's enqueue action,
 * asked read-only through {@link dev.muster.runtime.admission.AdmissionTrial}, admits its widest stage
 * to its queue. The reading ({@link dev.muster.bridge.argo.WorkflowReader}) and the deciding
 * ({@link dev.muster.bridge.argo.GangPlanner}, {@link dev.muster.bridge.argo.AdmissionPlanner}) are pure;
 * {@link dev.muster.bridge.argo.GangWriter} and {@link dev.muster.bridge.argo.AdmissionWriter} write
 * through the API server.
 */
package dev.muster.bridge.argo;
