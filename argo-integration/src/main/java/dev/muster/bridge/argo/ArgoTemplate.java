package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * The shape of one of a Workflow's {@code templates}: what it calls and in which order. A template
 * that runs something itself (a container, script, resource, suspend, ...) is a {@link Leaf}.
 *
 * @param durationEstimate its {@code metadata.annotations} {@code muster.dev/duration-estimate}, as written
 */
public record ArgoTemplate(String name, Body body, Optional<String> durationEstimate) {
    /** The annotation on a template that says how long one run of it takes. */
    public static final String DURATION_ESTIMATE = "muster.dev/duration-estimate";

    public ArgoTemplate {
        requireNonNull(name, "name is null");
        requireNonNull(body, "body is null");
        requireNonNull(durationEstimate, "durationEstimate is null");
    }

    /** What a template does. */
    public sealed interface Body permits Dag, Steps, Leaf {}

    /** {@code dag.tasks}. */
    public record Dag(ImmutableList<DagTask> tasks) implements Body {
        public Dag {
            tasks = ImmutableList.copyOf(tasks);
        }
    }

    /** {@code steps}: groups run one after the other, the steps of a group together. */
    public record Steps(ImmutableList<ImmutableList<Step>> groups) implements Body {
        public Steps {
            groups = groups.stream().map(ImmutableList::copyOf).collect(ImmutableList.toImmutableList());
        }
    }

    /** A template that runs something itself. */
    public record Leaf() implements Body {}

    /**
     * One of {@code dag.tasks}.
     *
     * @param index its place in {@code dag.tasks}, for messages
     * @param template the local template it calls; empty for a {@code templateRef} or an inline template
     * @param dependencies {@code dependencies}
     * @param depends {@code depends}, as written
     */
    public record DagTask(int index, String name, Optional<String> template, ImmutableList<String> dependencies, Optional<String> depends) {
        public DagTask {
            requireNonNull(name, "name is null");
            requireNonNull(template, "template is null");
            dependencies = ImmutableList.copyOf(dependencies);
            requireNonNull(depends, "depends is null");
        }
    }

    /**
     * One step of a group.
     *
     * @param template the local template it calls; empty for a {@code templateRef} or an inline template
     */
    public record Step(String name, Optional<String> template) {
        public Step {
            requireNonNull(name, "name is null");
            requireNonNull(template, "template is null");
        }
    }
}
