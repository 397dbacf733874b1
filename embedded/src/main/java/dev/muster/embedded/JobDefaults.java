package dev.muster.embedded;

import static dev.muster.embedded.FieldDefaults.putIfAbsent;
import static dev.muster.embedded.FieldDefaults.putIfEmpty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver v1.34.4 gives a batch/v1 Job, in two steps as it does.
 *
 * <p>When it decodes one ({@code pkg/apis/batch/v1/defaults.go}, {@code SetDefaults_Job}):
 * {@code parallelism} 1 (and {@code completions} 1 when neither is set), {@code backoffLimit} 6
 * ({@code 2^31 - 1} with a per-index limit), {@code completionMode: NonIndexed}, {@code suspend: false},
 * {@code podReplacementPolicy} ({@code Failed} with a pod failure policy, else {@code TerminatingOrFailed}),
 * {@code manualSelector: false}, and the template's labels as the Job's when it has none.
 *
 * <p>When it creates one, after the uid is given ({@code pkg/registry/batch/job/strategy.go},
 * {@code PrepareForCreate}): unless the selector is manual, the template gets the labels {@code
 * job-name}, {@code batch.kubernetes.io/job-name}, {@code controller-uid} and {@code
 * batch.kubernetes.io/controller-uid} where it lacks them, and the selector matches the last;
 * the status starts empty. A CronJob gets {@code SetDefaults_CronJob} and, created, an empty status. The job controller of kube-controller-manager lists a Job's pods by that
 * selector; a Job without one it cannot run.
 */
final class JobDefaults {
    static final String API_VERSION = "batch/v1";
    static final String KIND = "Job";
    private static final String SPEC = "spec";
    private static final String METADATA = "metadata";
    private static final String LABELS = "labels";
    private static final String JOB_NAME = "batch.kubernetes.io/job-name";
    private static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    /** The labels of before v1.27, which kube-apiserver still sets beside the new ones. */
    private static final String LEGACY_JOB_NAME = "job-name";
    private static final String LEGACY_CONTROLLER_UID = "controller-uid";

    private JobDefaults() {}

    static boolean isJob(JsonNode object) {
        return object.path("apiVersion").asText().equals(API_VERSION) && object.path("kind").asText().equals(KIND);
    }

    /**
     * {@code SetDefaults_Job} on a Job's spec. On a create the labels are copied later, by {@link
     * #onCreate}, once the template has its generated ones: kube-apiserver's Job and template then share
     * one map of labels, so the Job gets those too.
     */
    static void decode(ObjectNode job, ObjectNode spec, boolean create) {
        if (!spec.hasNonNull("completions") && !spec.hasNonNull("parallelism")) {
            spec.put("completions", 1);
        }
        putIfAbsent(spec, "parallelism", 1);
        if (!spec.hasNonNull("backoffLimit")) {
            spec.put("backoffLimit", spec.hasNonNull("backoffLimitPerIndex") ? Integer.MAX_VALUE : 6);
        }
        if (!create) {
            copyTemplateLabels(job, spec);
        }
        if (!spec.hasNonNull("completionMode")) {
            spec.put("completionMode", "NonIndexed");
        }
        putIfAbsent(spec, "suspend", false);
        if (!spec.hasNonNull("podReplacementPolicy")) {
            spec.put("podReplacementPolicy", spec.hasNonNull("podFailurePolicy") ? "Failed" : "TerminatingOrFailed");
        }
        putIfAbsent(spec, "manualSelector", false);
    }

    /** {@code SetDefaults_CronJob} on a CronJob's spec. */
    static void cronJob(ObjectNode spec) {
        putIfEmpty(spec, "concurrencyPolicy", "Allow");
        putIfAbsent(spec, "suspend", false);
        putIfAbsent(spec, "successfulJobsHistoryLimit", 3);
        putIfAbsent(spec, "failedJobsHistoryLimit", 1);
    }

    /** Whether a new object is a Job or a CronJob, whose create {@link #onCreate} completes. */
    static boolean completesCreate(JsonNode object) {
        return object.path("apiVersion").asText().equals(API_VERSION)
                && (object.path("kind").asText().equals(KIND) || object.path("kind").asText().equals("CronJob"));
    }

    /**
     * The selector and template labels of a new Job, whose {@code metadata.uid} is set; the status
     * emptied. The object is changed in place.
     */
    static void onCreate(ObjectNode job) {
        if (!isJob(job)) {
            // a CronJob's strategy only empties its status
            job.putObject("status");
            return;
        }
        if (!(job.path(SPEC) instanceof ObjectNode spec)) {
            return;
        }
        String name = job.path(METADATA).path("name").asText("");
        String uid = job.path(METADATA).path("uid").asText("");
        if (!spec.path("manualSelector").asBoolean(false)) {
            ObjectNode labels = spec.withObjectProperty("template").withObjectProperty(METADATA).withObjectProperty(LABELS);
            for (String label : new String[] {LEGACY_JOB_NAME, JOB_NAME}) {
                if (!labels.has(label)) {
                    labels.put(label, name);
                }
            }
            for (String label : new String[] {LEGACY_CONTROLLER_UID, CONTROLLER_UID}) {
                if (!labels.has(label)) {
                    labels.put(label, uid);
                }
            }
            ObjectNode matchLabels = spec.withObjectProperty("selector").withObjectProperty("matchLabels");
            if (!matchLabels.has(CONTROLLER_UID)) {
                matchLabels.put(CONTROLLER_UID, uid);
            }
        }
        copyTemplateLabels(job, spec);
        job.putObject("status");
    }

    private static void copyTemplateLabels(ObjectNode job, ObjectNode spec) {
        JsonNode templateLabels = spec.path("template").path(METADATA).path(LABELS);
        boolean unlabelled = job.path(METADATA).path(LABELS).isEmpty();
        if (templateLabels.isObject() && unlabelled && job.path(METADATA) instanceof ObjectNode metadata) {
            metadata.set(LABELS, templateLabels.deepCopy());
        }
    }
}
