package dev.muster.engine.plugins.priority;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobStarvation;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskOrder;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Priorities: higher-priority jobs and tasks first; a preemptor may evict only tasks of jobs with a
 * strictly lower priority (or, within its own job, tasks of strictly lower priority); a job starves
 * until all its tasks are placed, not just its gang minimum.
 */
public final class PriorityPlugin implements Plugin, TaskOrder, JobOrder, VictimSelector, JobStarvation {
    public static final String NAME = "priority";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compareTasks(TaskState left, TaskState right) {
        return Integer.compare(right.task().priority(), left.task().priority());
    }

    @Override
    public int compareJobs(JobState left, JobState right) {
        return Integer.compare(right.priority(), left.priority());
    }

    @Override
    public Optional<List<TaskState>> preemptable(TaskState preemptor, List<TaskState> candidates) {
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : candidates) {
            if (candidate.job() != preemptor.job()) {
                if (candidate.job().priority() < preemptor.job().priority()) {
                    victims.add(candidate);
                }
            } else if (candidate.task().priority() < preemptor.task().priority()) {
                victims.add(candidate);
            }
        }
        return Optional.of(victims);
    }

    @Override
    public boolean isStarving(JobState job) {
        return job.readyTaskCount() + job.waitingTaskCount() < job.tasks().size();
    }

    /** Builds the plugin; it takes no arguments. */
    public static final class Factory implements PluginFactory<NoArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NoArgs> argsType() {
            return NoArgs.class;
        }

        @Override
        public NoArgs defaultArgs() {
            return NoArgs.INSTANCE;
        }

        @Override
        public Plugin create(NoArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new PriorityPlugin();
        }
    }
}
