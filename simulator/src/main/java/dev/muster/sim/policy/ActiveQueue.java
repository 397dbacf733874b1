package dev.muster.sim.policy;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The baseline's active queue across cycles: every pending pod, ordered by priority, then the time it
 * entered the queue (its creation, or the last cycle in which it fit nowhere), then creation time and
 * id. Every pod pending in a cycle is tried in it, so the pods stamped by the last cycle are exactly
 * those pending then and not bound.
 *
 * <p>Why it is kept per job and per group rather than per pod: with a backlog of tens of thousands of
 * pods, sorting and stamping each of them every cycle cost the baseline most of its run time. A job
 * whose snapshot object is the very same as in the last cycle, with none of its pods bound then, has
 * the same pending pods, all of which failed: they are restamped as one group, without looking at
 * its pods. Anything else (a new job, a changed one, one with several groups) is rebuilt pod by pod,
 * with the same result. Not thread-safe.
 */
final class ActiveQueue {
    private static final Comparator<PendingGroup> GROUP_ORDER = Comparator.comparingInt(PendingGroup::priority).reversed()
            .thenComparingLong(PendingGroup::queuedAt)
            .thenComparing(PendingGroup::created);

    /** A job's pods as one cycle saw them, and which of them it bound. */
    static final class JobEntry {
        private final Job job;
        private final ImmutableList<Task> placed;
        private final ImmutableList<PendingGroup> groups;
        private final Set<TaskId> bound = new HashSet<>();
        private Set<TaskId> failed;

        JobEntry(Job job, ImmutableList<Task> placed, ImmutableList<PendingGroup> groups) {
            this.job = job;
            this.placed = placed;
            this.groups = groups;
        }

        void bound(TaskId task) {
            bound.add(task);
        }

        /** Whether the pod was pending in that cycle and not bound, i.e. fit nowhere. */
        private boolean failed(TaskId task) {
            if (failed == null) {
                failed = new HashSet<>();
                for (PendingGroup group : groups) {
                    for (Task pending : group.tasks()) {
                        if (!bound.contains(pending.id())) {
                            failed.add(pending.id());
                        }
                    }
                }
            }
            return failed.contains(task);
        }
    }

    /** Consecutive pods of one group in queue order. */
    record Run(PendingGroup group, JobEntry job, List<Task> tasks) {}

    private Map<JobId, JobEntry> lastCycle = Map.of();
    private long lastCycleMillis;

    /** This cycle's entries, in the snapshot's job order; call {@link #endCycle} once the cycle is decided. */
    List<JobEntry> beginCycle(ClusterSnapshot snapshot) {
        List<JobEntry> entries = new ArrayList<>(snapshot.jobs().size());
        for (Job job : snapshot.jobs().values()) {
            JobEntry last = lastCycle.get(job.id());
            if (last != null && last.job == job && last.bound.isEmpty() && last.groups.size() <= 1) {
                ImmutableList<PendingGroup> groups = last.groups.isEmpty() ? last.groups : ImmutableList.of(last.groups.get(0).withQueuedAt(lastCycleMillis));
                entries.add(new JobEntry(job, last.placed, groups));
            } else {
                entries.add(rebuild(job, last));
            }
        }
        return entries;
    }

    private JobEntry rebuild(Job job, JobEntry last) {
        ImmutableList.Builder<Task> placed = ImmutableList.builder();
        List<PendingGroup> groups = new ArrayList<>();
        List<List<Task>> members = new ArrayList<>();
        for (Task task : job.tasks()) {
            if (task.node().isPresent() && !task.status().isTerminated() && task.status() != TaskStatus.PENDING) {
                placed.add(task);
            }
            if (task.status() != TaskStatus.PENDING || task.gated()) {
                continue;
            }
            long queuedAt = last != null && last.failed(task.id()) ? lastCycleMillis : task.created().toEpochMilli();
            int group = 0;
            while (group < groups.size() && !groups.get(group).sameKey(task, queuedAt)) {
                group++;
            }
            if (group == groups.size()) {
                groups.add(new PendingGroup(task.priority(), queuedAt, task.created(), task.request(), ImmutableList.of()));
                members.add(new ArrayList<>());
            }
            members.get(group).add(task);
        }
        ImmutableList.Builder<PendingGroup> sorted = ImmutableList.builder();
        for (int g = 0; g < groups.size(); g++) {
            members.get(g).sort(Comparator.comparing(Task::id));
            PendingGroup group = groups.get(g);
            sorted.add(new PendingGroup(group.priority(), group.queuedAt(), group.created(), group.request(), ImmutableList.copyOf(members.get(g))));
        }
        return new JobEntry(job, placed.build(), sorted.build());
    }

    /** The pending pods of these entries in queue order, as runs of one group each. */
    static List<Run> order(List<JobEntry> entries) {
        List<Run> groups = new ArrayList<>();
        for (JobEntry entry : entries) {
            for (PendingGroup group : entry.groups) {
                groups.add(new Run(group, entry, group.tasks()));
            }
        }
        groups.sort(Comparator.comparing(Run::group, GROUP_ORDER));
        List<Run> runs = new ArrayList<>(groups.size());
        int start = 0;
        while (start < groups.size()) {
            int end = start + 1;
            while (end < groups.size() && GROUP_ORDER.compare(groups.get(start).group(), groups.get(end).group()) == 0) {
                end++;
            }
            tieBreakById(groups.subList(start, end), runs);
            start = end;
        }
        return runs;
    }

    /** Groups equal but for their pods' ids: in id order, whole groups when their id ranges do not overlap, else pod by pod. */
    private static void tieBreakById(List<Run> tied, List<Run> runs) {
        if (tied.size() == 1) {
            runs.add(tied.get(0));
            return;
        }
        List<Run> byFirst = new ArrayList<>(tied);
        byFirst.sort(Comparator.comparing(run -> run.tasks().get(0).id()));
        boolean disjoint = true;
        for (int i = 1; i < byFirst.size() && disjoint; i++) {
            List<Task> previous = byFirst.get(i - 1).tasks();
            disjoint = previous.get(previous.size() - 1).id().compareTo(byFirst.get(i).tasks().get(0).id()) < 0;
        }
        if (disjoint) {
            runs.addAll(byFirst);
            return;
        }
        List<Run> pods = new ArrayList<>();
        for (Run run : tied) {
            for (Task task : run.tasks()) {
                pods.add(new Run(run.group(), run.job(), List.of(task)));
            }
        }
        pods.sort(Comparator.comparing(pod -> pod.tasks().get(0).id()));
        runs.addAll(pods);
    }

    /** Placed pods of the entries, in the snapshot's order. */
    static List<Task> placed(List<JobEntry> entries) {
        List<Task> placed = new ArrayList<>();
        entries.forEach(entry -> placed.addAll(entry.placed));
        return placed;
    }

    void endCycle(List<JobEntry> entries, long now) {
        Map<JobId, JobEntry> next = new HashMap<>(entries.size() * 2);
        for (JobEntry entry : entries) {
            next.put(entry.job.id(), entry);
        }
        lastCycle = next;
        lastCycleMillis = now;
    }

    /** Forgets every stamp: a cycle with nothing pending leaves no pod that fit nowhere. */
    void clear() {
        lastCycle = Map.of();
    }
}
