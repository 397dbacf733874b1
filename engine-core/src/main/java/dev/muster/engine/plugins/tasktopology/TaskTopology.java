package dev.muster.engine.plugins.tasktopology;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

/**
 * A job's task topology, read from its PodGroup's annotations with Volcano's names and syntax: groups
 * separated by {@code ;}, roles ({@code volcano.sh/task-spec} values) within a group by {@code ,}.
 *
 * <pre>{@code
 * volcano.sh/task-topology-affinity: "ps,worker"        # a ps and workers prefer one node
 * volcano.sh/task-topology-anti-affinity: "ps;chief"    # two ps apart, two chiefs apart
 * volcano.sh/task-topology-task-order: "ps,worker"      # within a bucket, ps before worker
 * }</pre>
 *
 * A group of one role means that role with itself (self-affinity, self-anti-affinity).
 *
 * @param affinity the groups of roles kept together
 * @param antiAffinity the groups of roles kept apart
 * @param taskOrder the roles in the order their tasks are placed, first first
 */
public record TaskTopology(
        ImmutableList<ImmutableList<String>> affinity,
        ImmutableList<ImmutableList<String>> antiAffinity,
        ImmutableList<String> taskOrder) {
    public static final String AFFINITY = "volcano.sh/task-topology-affinity";
    public static final String ANTI_AFFINITY = "volcano.sh/task-topology-anti-affinity";
    public static final String TASK_ORDER = "volcano.sh/task-topology-task-order";

    private static final Splitter GROUPS = Splitter.on(';').trimResults().omitEmptyStrings();
    private static final Splitter ROLES = Splitter.on(',').trimResults().omitEmptyStrings();

    public TaskTopology {
        affinity = ImmutableList.copyOf(requireNonNull(affinity, "affinity is null"));
        antiAffinity = ImmutableList.copyOf(requireNonNull(antiAffinity, "antiAffinity is null"));
        taskOrder = ImmutableList.copyOf(requireNonNull(taskOrder, "taskOrder is null"));
    }

    /**
     * Reads the topology from a PodGroup's annotations; empty when none of the three is set.
     *
     * @param roles the roles the job's tasks have; every role named must be one of them
     * @throws IllegalArgumentException naming the annotation and its value when a role is unknown or
     *     named twice in one group (Volcano then ignores the job's topology, as the plugin does)
     */
    public static Optional<TaskTopology> read(Map<String, String> annotations, SortedSet<String> roles) {
        requireNonNull(annotations, "annotations is null");
        requireNonNull(roles, "roles is null");
        if (!annotations.containsKey(AFFINITY) && !annotations.containsKey(ANTI_AFFINITY) && !annotations.containsKey(TASK_ORDER)) {
            return Optional.empty();
        }
        ImmutableList<ImmutableList<String>> affinity = groups(annotations, AFFINITY, roles);
        ImmutableList<ImmutableList<String>> antiAffinity = groups(annotations, ANTI_AFFINITY, roles);
        ImmutableList<String> order = ImmutableList.of();
        String orderText = annotations.get(TASK_ORDER);
        if (orderText != null) {
            order = ImmutableList.copyOf(ROLES.split(orderText));
            check(order, TASK_ORDER, orderText, roles);
        }
        return Optional.of(new TaskTopology(affinity, antiAffinity, order));
    }

    private static ImmutableList<ImmutableList<String>> groups(Map<String, String> annotations, String key, SortedSet<String> roles) {
        String text = annotations.get(key);
        if (text == null) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<ImmutableList<String>> groups = ImmutableList.builder();
        for (String group : GROUPS.split(text)) {
            ImmutableList<String> members = ImmutableList.copyOf(ROLES.split(group));
            check(members, key, text, roles);
            if (!members.isEmpty()) {
                groups.add(members);
            }
        }
        return groups.build();
    }

    private static void check(List<String> members, String key, String text, SortedSet<String> roles) {
        Set<String> seen = new HashSet<>();
        for (String role : members) {
            if (!roles.contains(role)) {
                throw new IllegalArgumentException("annotation " + key + " '" + text + "': '" + role
                        + "' is not a role of the job (its roles, from " + "volcano.sh/task-spec: "
                        + (roles.isEmpty() ? "none" : String.join(", ", roles)) + ")");
            }
            if (!seen.add(role)) {
                throw new IllegalArgumentException("annotation " + key + " '" + text + "': '" + role + "' is named twice in one group");
            }
        }
    }
}
