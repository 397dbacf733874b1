/**
 * Volcano's {@code batch.volcano.sh/v1alpha1} Job as typed records, read strictly from YAML or JSON
 * ({@link dev.muster.jobs.VolcanoJobReader}, with the defaults of Volcano's webhook) and
 * validated ({@link dev.muster.jobs.JobValidator}; plugin names and flags are checked by
 * {@code jobs.jobplugins.JobPlugins}). Pod templates stay fabric8 {@code PodTemplateSpec}s: this
 * module is at the Kubernetes edge. The lifecycle lives in
 * {@code jobs.controller}, the job plugins in {@code jobs.jobplugins} and {@code flow.volcano.sh}
 * JobFlows in {@code jobs.flow}.
 */
package dev.muster.jobs;
