package dev.muster.engine.jobs.flow;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.engine.jobs.JobPhase;
import dev.muster.engine.jobs.VolcanoJob;
import dev.muster.engine.jobs.controller.Owners;
import dev.muster.engine.jobs.controller.PlanEvent;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.graph.Condition;
import dev.muster.graph.CriticalPath;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphProblem;
import dev.muster.graph.GraphRun;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;
import dev.muster.graph.NodeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

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
            String message = problems.stream().map(GraphProblem::message).collect(Collectors.joining("; "));
            List<PlanEvent> events = flow.previous().phase().equals("Failed") ? List.of() : List.of(PlanEvent.warning("InvalidJobFlow", message));
            JobFlowStatus failed = new JobFlowStatus("Failed", ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of(),
                    ImmutableList.of(), ImmutableList.of(), ImmutableList.of());
            return new JobFlowPlan(ImmutableList.of(), ImmutableList.of(), Optional.of(failed), ImmutableList.copyOf(events), Optional.empty());
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
        Optional<Duration> requeue = Optional.empty();
        CriticalPath path = CriticalPath.of(graph, estimates(flow, templates));
        for (NodeId node : run.ready()) {
            if (byName.containsKey(flow.jobName(node.value()))) {
                continue;
            }
            JobTemplate template = templates.get(node.value());
            if (template == null) {
                events.add(PlanEvent.warning("TemplateNotFound", "no JobTemplate " + flow.metadata().namespace() + "/" + node + " for flow " + node));
                requeue = Optional.of(TEMPLATE_RETRY);
                continue;
            }
            create.add(job(flow, template, path.remaining(node)));
            events.add(PlanEvent.normal("Created", "create a job named " + flow.jobName(node.value()) + "!"));
        }
        JobFlowStatus status = JobFlowStatuses.of(flow, jobs, run);
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

    /** Completed succeeds; Failed, Terminated and Aborted fail the stage; any other phase is running. */
    static NodeState nodeState(JobPhase phase) {
        return switch (phase) {
            case COMPLETED -> NodeState.SUCCEEDED;
            case FAILED, TERMINATED, ABORTED -> NodeState.FAILED;
            case PENDING, RUNNING, RESTARTING, ABORTING, COMPLETING, TERMINATING -> NodeState.RUNNING;
        };
    }

    private static Map<NodeId, Duration> estimates(JobFlow flow, Map<String, JobTemplate> templates) {
        Map<NodeId, Duration> estimates = new HashMap<>();
        for (Flow stage : flow.flows()) {
            JobTemplate template = templates.get(stage.name());
            estimates.put(NodeId.of(stage.name()), template == null ? DEFAULT_ESTIMATE : template.spec().runningEstimate().orElse(DEFAULT_ESTIMATE));
        }
        return estimates;
    }

    /** The stage's Job: the template's spec as written, Volcano's labels and annotations, the DAG annotations, owned by the flow. */
    private static ObjectNode job(JobFlow flow, JobTemplate template, Duration remainingPath) {
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
        job.set("spec", template.specJson());
        return job;
    }
}
