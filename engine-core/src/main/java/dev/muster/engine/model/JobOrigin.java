package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a job comes from, as {@link OriginAnnotations} on its PodGroup say: the system, workflow, run
 * and step (with the indexes of a fanned-out step), and that system's words for the three.
 *
 * @param terms the words for workflow, run and step, in that order
 */
public record JobOrigin(
        Optional<String> system,
        Optional<String> workflow,
        Optional<String> run,
        Optional<String> step,
        Optional<String> stepIndexes,
        ImmutableList<String> terms) {
    /** The words used when a PodGroup names none, or not three. */
    public static final ImmutableList<String> DEFAULT_TERMS = ImmutableList.of("workflow", "run", "step");

    public JobOrigin {
        requireNonNull(system, "system is null");
        requireNonNull(workflow, "workflow is null");
        requireNonNull(run, "run is null");
        requireNonNull(step, "step is null");
        requireNonNull(stepIndexes, "stepIndexes is null");
        requireNonNull(terms, "terms is null");
        checkArgument(terms.size() == 3, "terms must be three words (workflow, run, step): %s", terms);
        checkArgument(workflow.isPresent() || run.isPresent() || step.isPresent(), "an origin names a workflow, a run or a step");
    }

    /** The origin the annotations describe, or empty when they name no workflow, run or step. */
    public static Optional<JobOrigin> of(Map<String, String> annotations) {
        Optional<String> workflow = value(annotations, OriginAnnotations.WORKFLOW);
        Optional<String> run = value(annotations, OriginAnnotations.RUN);
        Optional<String> step = value(annotations, OriginAnnotations.STEP);
        if (workflow.isEmpty() && run.isEmpty() && step.isEmpty()) {
            return Optional.empty();
        }
        ImmutableList<String> terms = value(annotations, OriginAnnotations.TERMS)
                .map(text -> ImmutableList.copyOf(Splitter.on(',').trimResults().split(text)))
                .filter(words -> words.size() == 3 && words.stream().noneMatch(String::isEmpty))
                .orElse(DEFAULT_TERMS);
        return Optional.of(new JobOrigin(value(annotations, OriginAnnotations.SYSTEM), workflow, run, step,
                value(annotations, OriginAnnotations.STEP_INDEXES), terms));
    }

    /** The origin in its system's words: {@code Airflow DAG etl_daily, run manual__1, task transform[0-19]}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        workflow.ifPresent(name -> parts.add(terms.get(0) + " " + name));
        run.ifPresent(name -> parts.add(terms.get(1) + " " + name));
        step.ifPresent(name -> parts.add(terms.get(2) + " " + name + stepIndexes.map(indexes -> "[" + indexes + "]").orElse("")));
        String text = String.join(", ", parts);
        return system.map(name -> name + " " + text).orElse(text);
    }

    /** Why the job waits, followed by where it comes from; the reason's own words come first, unchanged. */
    public String explain(String reason) {
        requireNonNull(reason, "reason is null");
        return reason + "; for " + describe();
    }

    /** The reason a job waits, followed by its origin when its annotations name one. */
    public static String reasonWithOrigin(Job job, String reason) {
        return of(job.annotations()).map(origin -> origin.explain(reason)).orElse(reason);
    }

    private static Optional<String> value(Map<String, String> annotations, String key) {
        return Optional.ofNullable(annotations.get(key)).map(String::trim).filter(text -> !text.isEmpty());
    }
}
