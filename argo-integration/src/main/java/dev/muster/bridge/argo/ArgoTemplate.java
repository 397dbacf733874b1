package dev.muster.bridge.argo;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
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

    /**
     * A template that runs something itself.
     *
     * @param podRequest what its pod asks for: the {@code resources.requests} of its {@code container},
     *     {@code script} or {@code containerSet.containers}; nothing for a template that sets none
     */
    public record Leaf(Resources podRequest) implements Body {
        public Leaf {
            requireNonNull(podRequest, "podRequest is null");
        }
    }

    /**
     * How many times a step or task runs at once: once, or once per item of its {@code withItems} or
     * {@code withSequence}. A {@code withParam} (or a {@code withSequence} of expressions) is known only
     * when the workflow runs: {@code known} is false and {@code count} is 1.
     */
    public record Width(int count, boolean known) {
        public static final Width ONE = new Width(1, true);

        public Width {
            checkArgument(count >= 0, "count is negative: %s", count);
        }
    }

    /**
     * One of {@code dag.tasks}.
     *
     * @param index its place in {@code dag.tasks}, for messages
     * @param template the local template it calls; empty for a {@code templateRef} or an inline template
     * @param dependencies {@code dependencies}
     * @param depends {@code depends}, as written
     * @param width how many times it runs at once
     */
    public record DagTask(int index, String name, Optional<String> template, ImmutableList<String> dependencies, Optional<String> depends,
            Width width) {
        public DagTask {
            requireNonNull(width, "width is null");
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
     * @param width how many times it runs at once
     */
    public record Step(String name, Optional<String> template, Width width) {
        public Step {
            requireNonNull(width, "width is null");
            requireNonNull(name, "name is null");
            requireNonNull(template, "template is null");
        }
    }
}
