package dev.muster.jobs.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.Fields;
import dev.muster.jobs.JobMetadata;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.JobSpecReader;
import dev.muster.jobs.VolcanoJobReader;
import dev.muster.jobs.VolcanoJobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads JobTemplates and JobFlows strictly. A flow's {@code dependsOn.probe} is accepted and ignored,
 * as Volcano's controller ignores it; its {@code patch.jobSpec} is kept for {@link JobSpecPatch}.
 */
public final class JobFlowReader {
    private static final ImmutableSet<String> ROOT_FIELDS = ImmutableSet.of("apiVersion", "kind", "metadata", "spec", "status");
    private static final ImmutableSet<String> FLOW_SPEC_FIELDS = ImmutableSet.of("flows", "jobRetainPolicy");
    private static final ImmutableSet<String> FLOW_FIELDS = ImmutableSet.of("name", "dependsOn", "patch");
    /** Volcano's {@code Patch} embeds a JobSpec under {@code jobSpec} (its CRD; the design document's {@code spec} never shipped). */
    private static final ImmutableSet<String> PATCH_FIELDS = ImmutableSet.of("jobSpec");
    private static final ImmutableSet<String> DEPENDS_ON_FIELDS = ImmutableSet.of("targets", "probe");
    private static final ImmutableSet<String> STATUS_FIELDS = ImmutableSet.of("state", "pendingJobs", "runningJobs", "failedJobs",
            "completedJobs", "terminatedJobs", "unKnowJobs", "jobStatusList", "conditions");

    private JobFlowReader() {}

    public static JobReadResult<JobTemplate> readTemplate(JsonNode root) {
        List<String> problems = new ArrayList<>();
        Fields object = Fields.root(root, problems, ROOT_FIELDS);
        VolcanoJobReader.checkKind(object, JobTemplate.API_VERSION, JobTemplate.KIND);
        JobMetadata metadata = VolcanoJobReader.readMetadata(object);
        VolcanoJobSpec spec = JobSpecReader.read(object.get("spec"), "spec", problems);
        JsonNode specJson = object.get("spec");
        ObjectNode copy = specJson.isObject() ? (ObjectNode) specJson.deepCopy() : JsonNodeFactory.instance.objectNode();
        return new JobReadResult<>(Optional.of(new JobTemplate(metadata, spec, copy)), named("JobTemplate", metadata, problems));
    }

    public static JobReadResult<JobFlow> readFlow(JsonNode root) {
        List<String> problems = new ArrayList<>();
        Fields object = Fields.root(root, problems, ROOT_FIELDS);
        VolcanoJobReader.checkKind(object, JobFlow.API_VERSION, JobFlow.KIND);
        JobMetadata metadata = VolcanoJobReader.readMetadata(object);
        Fields spec = Fields.of(object.get("spec"), "spec", problems, FLOW_SPEC_FIELDS);
        String retain = spec.string("jobRetainPolicy").orElse("retain");
        if (!retain.equals("retain") && !retain.equals("delete")) {
            spec.problem("spec.jobRetainPolicy", "unknown policy '" + retain + "' (known: retain, delete)");
        }
        ImmutableList<JsonNode> flowNodes = spec.list("flows");
        ImmutableList.Builder<Flow> flows = ImmutableList.builder();
        for (int i = 0; i < flowNodes.size(); i++) {
            Fields flow = Fields.of(flowNodes.get(i), "spec.flows[" + i + "]", problems, FLOW_FIELDS);
            Optional<String> name = flow.string("name").filter(value -> !value.isEmpty());
            if (name.isEmpty()) {
                flow.problem(flow.child("name"), "missing");
            }
            Optional<ObjectNode> patch = patch(flow, problems);
            Fields dependsOn = Fields.of(flow.get("dependsOn"), flow.child("dependsOn"), problems, DEPENDS_ON_FIELDS);
            ImmutableList<String> targets = dependsOn.strings("targets");
            name.ifPresent(value -> flows.add(new Flow(value, targets, patch)));
        }
        Fields status = Fields.of(object.get("status"), "status", problems, STATUS_FIELDS);
        ImmutableList.Builder<FlowJobStatus> previous = ImmutableList.builder();
        for (JsonNode entry : status.list("jobStatusList")) {
            previous.add(new FlowJobStatus(entry.path("name").asText(), entry.path("state").asText(), Optional.empty(), Optional.empty(), 0, ""));
        }
        JsonNode state = status.get("state");
        JobFlowStatus previousStatus = new JobFlowStatus(state.path("phase").asText(), ImmutableList.of(), ImmutableList.of(),
                ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), previous.build(), state.path("reason").asText(),
                state.path("message").asText());
        return new JobReadResult<>(Optional.of(new JobFlow(metadata, flows.build(), retain.equals("delete"), previousStatus)),
                named("JobFlow", metadata, problems));
    }

    /** {@code patch.jobSpec}, a map whose keyed entries ({@code tasks[].name}, {@code containers[].name}, ...) all have their key. */
    private static Optional<ObjectNode> patch(Fields flow, List<String> problems) {
        Fields patch = Fields.of(flow.get("patch"), flow.child("patch"), problems, PATCH_FIELDS);
        JsonNode jobSpec = patch.get("jobSpec");
        if (Fields.absent(jobSpec)) {
            return Optional.empty();
        }
        if (!jobSpec.isObject()) {
            patch.problem(patch.child("jobSpec"), "expected a map, found " + Fields.describe(jobSpec));
            return Optional.empty();
        }
        JobSpecPatch.check(jobSpec, patch.child("jobSpec"), patch);
        return Optional.of((ObjectNode) jobSpec);
    }

    private static ImmutableList<String> named(String kind, JobMetadata metadata, List<String> problems) {
        return problems.stream().map(problem -> kind + " " + metadata.key() + ": " + problem).collect(ImmutableList.toImmutableList());
    }
}
