package dev.muster.jobs.flow;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.graph.Condition;
import dev.muster.graph.CriticalPath;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphProblem;
import dev.muster.graph.GraphRun;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;
import dev.muster.graph.NodeState;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobSpecReader;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.Owners;
import dev.muster.jobs.controller.PlanEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JobFlow controller as a function. Each flow is a node of a {@code dev.muster.graph} DAG whose
 * edges need the target to succeed (its Job Completed, as Volcano's controller checks). A ready
 * stage without a Job gets one, made from its template; a stage whose target failed (Failed,
 * Terminated or Aborted) is {@code Skipped} with the reason, and so are its descendants. The Jobs
 * carry the {@code dag} plugin's annotations. Stateless and thread-safe.
 */
public final class JobFlowReconciler {
    /** The duration estimate of a template without {@code runningEstimate}. */
    public static final Duration DEFAULT_ESTIMATE = Duration.ofMinutes(1);
    public static final String CREATED_BY_JOB_TEMPLATE = "volcano.sh/createdByJobTemplate";
    public static final String CREATED_BY_JOB_FLOW = "volcano.sh/createdByJobFlow";
    private static final Duration TEMPLATE_RETRY = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What to do for {@code flow} now.
     *
     * @param templates the JobTemplates of the flow's namespace, by name
     * @param jobs the Jobs the flow created (labelled {@code volcano.sh/createdByJobFlow})
     */
    public JobFlowPlan reconcile(JobFlow flow, Map<String, JobTemplate> templates, List<VolcanoJob> jobs) {
        GraphBuilder builder = JobGraph.builder();
        flow.flows().forEach(stage -> builder.node(stage.name()));
        flow.flows().forEach(stage -> stage.targets().forEach(target -> builder.edge(target, stage.name(), Condition.SUCCEEDED)));
        List<GraphProblem> problems = builder.validate();
        if (!problems.isEmpty()) {
            return invalid(flow, problems.stream().map(problem -> located(flow, problem)).toList());
        }
        JobGraph graph = builder.build();
        Map<String, VolcanoJob> byName = new HashMap<>();
        jobs.forEach(job -> byName.put(job.name(), job));
        GraphRun run = new GraphRun(graph);
        for (NodeId node : graph.topologicalOrder().order()) {
            VolcanoJob job = byName.get(flow.jobName(node.value()));
            NodeState state = job == null ? NodeState.PENDING : nodeState(job.status().currentPhase());
            if (run.state(node).canBecome(state)) {
                run.update(node, state);
            }
        }
        List<ObjectNode> create = new ArrayList<>();
        List<PlanEvent> events = new ArrayList<>();
        List<String> missingTemplates = new ArrayList<>();
        Optional<Duration> requeue = Optional.empty();
        CriticalPath path = CriticalPath.of(graph, estimates(flow, templates));
        for (NodeId node : run.ready()) {
            if (byName.containsKey(flow.jobName(node.value()))) {
                continue;
            }
            JobTemplate template = templates.get(node.value());
            if (template == null) {
                String missing = "no JobTemplate " + flow.metadata().namespace() + "/" + node + " for flow " + node;
                events.add(PlanEvent.warning(JobFlowStatus.TEMPLATE_NOT_FOUND, missing));
                missingTemplates.add(missing);
                requeue = Optional.of(TEMPLATE_RETRY);
                continue;
            }
            create.add(job(flow, stage(flow, node.value()), template, path.remaining(node)));
            events.add(PlanEvent.normal("Created", "create a job named " + flow.jobName(node.value()) + "!"));
        }
        JobFlowStatus counted = JobFlowStatuses.of(flow, jobs, run);
        JobFlowStatus status = missingTemplates.isEmpty()
                ? counted
                : counted.withProblem(counted.phase(), JobFlowStatus.TEMPLATE_NOT_FOUND, String.join("; ", missingTemplates));
        for (FlowJobStatus skipped : status.jobStatusList()) {
            boolean reported = flow.previous().jobStatusList().stream()
                    .anyMatch(previous -> previous.name().equals(skipped.name()) && previous.state().equals(FlowJobStatus.SKIPPED));
            if (skipped.state().equals(FlowJobStatus.SKIPPED) && !reported) {
                events.add(PlanEvent.warning("Stopped", skipped.name() + " will not run: " + skipped.reason()));
            }
        }
        List<String> delete = flow.deleteJobsOnSuccess() && status.phase().equals("Succeed")
                ? jobs.stream().map(VolcanoJob::name).sorted().toList()
                : List.of();
        return new JobFlowPlan(ImmutableList.copyOf(create), ImmutableList.copyOf(delete), Optional.of(status), ImmutableList.copyOf(events), requeue);
    }

    /** A graph problem with the field it comes from: the dependsOn of the stage that declares the edge, or the flows. */
    private static String located(JobFlow flow, GraphProblem problem) {
        if (problem instanceof GraphProblem.SelfEdge self) {
            return stageField(flow, self.node().value()) + ".dependsOn.targets: " + problem.message();
        }
        if (problem instanceof GraphProblem.UnknownNode unknown) {
            return stageField(flow, unknown.edge().child().value()) + ".dependsOn.targets: " + problem.message();
        }
        if (problem instanceof GraphProblem.DuplicateEdge duplicate) {
            return stageField(flow, duplicate.child().value()) + ".dependsOn.targets: " + problem.message();
        }
        if (problem instanceof GraphProblem.DuplicateNode) {
            return "spec.flows[].name: " + problem.message();
        }
        return "spec.flows: " + problem.message();
    }

    private static String stageField(JobFlow flow, String name) {
        for (int i = 0; i < flow.flows().size(); i++) {
            if (flow.flows().get(i).name().equals(name)) {
                return "spec.flows[" + i + "]";
            }
        }
        return "spec.flows";
    }

    /**
     * The plan for a flow Muster will not run (a cycle, a target that is no flow, a field it cannot
     * read): {@code Failed} with reason {@code InvalidJobFlow} and the problems as the message, one
     * Warning event with the same, no jobs. The event is recorded again only when the problems change.
     */
    public JobFlowPlan invalid(JobFlow flow, List<String> problems) {
        checkArgument(!problems.isEmpty(), "no problems for JobFlow %s", flow.metadata().key());
        String message = String.join("; ", problems);
        JobFlowStatus previous = flow.previous();
        boolean reported = previous.reason().equals(JobFlowStatus.INVALID) && previous.message().equals(message);
        List<PlanEvent> events = reported ? List.of() : List.of(PlanEvent.warning(JobFlowStatus.INVALID, message));
        return new JobFlowPlan(ImmutableList.of(), ImmutableList.of(), Optional.of(JobFlowStatus.invalid(message)), ImmutableList.copyOf(events),
                Optional.empty());
    }

    /** Completed succeeds; Failed, Terminated and Aborted fail the stage; any other phase is running. */
    static NodeState nodeState(JobPhase phase) {
        return switch (phase) {
            case COMPLETED -> NodeState.SUCCEEDED;
            case FAILED, TERMINATED, ABORTED -> NodeState.FAILED;
            case PENDING, RUNNING, RESTARTING, ABORTING, COMPLETING, TERMINATING -> NodeState.RUNNING;
        };
    }

    /** Each stage's {@code runningEstimate}, a patched one if the flow patches it. */
    private static Map<NodeId, Duration> estimates(JobFlow flow, Map<String, JobTemplate> templates) {
        Map<NodeId, Duration> estimates = new HashMap<>();
        for (Flow stage : flow.flows()) {
            JobTemplate template = templates.get(stage.name());
            Optional<Duration> estimate = template == null ? Optional.empty() : template.spec().runningEstimate();
            if (template != null && stage.patch().map(patch -> patch.has("runningEstimate")).orElse(false)) {
                estimate = JobSpecReader.read(stage.jobSpec(template), "spec", new ArrayList<>()).runningEstimate();
            }
            estimates.put(NodeId.of(stage.name()), estimate.orElse(DEFAULT_ESTIMATE));
        }
        return estimates;
    }

    private static Flow stage(JobFlow flow, String name) {
        return flow.flows().stream().filter(stage -> stage.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("BUG: no flow " + name + " in JobFlow " + flow.metadata().key()));
    }

    /** The stage's Job: the template's spec as written (patched by the flow), Volcano's labels and annotations, the DAG annotations, owned by the flow. */
    private static ObjectNode job(JobFlow flow, Flow stage, JobTemplate template, Duration remainingPath) {
        String namespace = flow.metadata().namespace();
        ObjectNode job = JSON.createObjectNode();
        job.put("apiVersion", VolcanoJob.API_VERSION);
        job.put("kind", VolcanoJob.KIND);
        ObjectNode metadata = job.putObject("metadata");
        metadata.put("name", flow.jobName(template.name()));
        metadata.put("namespace", namespace);
        ObjectNode labels = metadata.putObject("labels");
        labels.put(CREATED_BY_JOB_TEMPLATE, namespace + "." + template.name());
        labels.put(CREATED_BY_JOB_FLOW, namespace + "." + flow.name());
        ObjectNode annotations = metadata.putObject("annotations");
        annotations.put(CREATED_BY_JOB_TEMPLATE, namespace + "." + template.name());
        annotations.put(CREATED_BY_JOB_FLOW, namespace + "." + flow.name());
        annotations.put(DagAnnotations.DAG, flow.metadata().key());
        annotations.put(DagAnnotations.NODE, template.name());
        annotations.put(DagAnnotations.REMAINING_PATH, Long.toString(remainingPath.toSeconds()));
        metadata.putArray("ownerReferences").add(JSON.<ObjectNode>valueToTree(
                Owners.controller(JobFlow.API_VERSION, JobFlow.KIND, flow.name(), flow.metadata().uid())));
        job.set("spec", stage.jobSpec(template));
        return job;
    }
}
