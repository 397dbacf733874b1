package dev.muster.engine.testing;

import static dev.muster.engine.framework.PluginBinder.pluginBinder;

import com.google.inject.AbstractModule;
import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.QueueCapacity;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for a queue-quota plugin in action tests: a queue may take (or reclaim for) a task while
 * what it holds plus the task stays within its capability, on the dimensions the task requests, and
 * is overused once it holds its whole capability. Name {@value #NAME}; register it with {@link Module}.
 */
public final class TestingCapabilityPlugin implements Plugin, QueueCapacity, AllocationListener {
    public static final String NAME = "testing-capability";

    private final Map<QueueName, Resources> allocated = new HashMap<>();

    private TestingCapabilityPlugin(Session session) {
        for (JobState job : session.jobs()) {
            allocated.merge(job.queue(), job.allocated(), Resources::add);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAllocatable(Queue queue, TaskState task) {
        Resources future = allocated.getOrDefault(queue.name(), Resources.EMPTY).add(task.request());
        return queue.capability().map(capability -> future.lessEqualOnDimensionsOf(capability, task.request())).orElse(true);
    }

    @Override
    public boolean isOverused(Queue queue) {
        Resources held = allocated.getOrDefault(queue.name(), Resources.EMPTY);
        return queue.capability().map(capability -> capability.lessEqual(held, Resources.Missing.ZERO)).orElse(false);
    }

    @Override
    public boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        return tasks.stream().allMatch(task -> isAllocatable(queue, task));
    }

    @Override
    public void allocated(TaskState task) {
        allocated.merge(task.job().queue(), task.request(), Resources::add);
    }

    @Override
    public void deallocated(TaskState task) {
        allocated.merge(task.job().queue(), task.request(), Resources::subtract);
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
            return new TestingCapabilityPlugin(session);
        }
    }

    /** Registers the plugin for {@link TestingScheduler#withConfig(String, com.google.inject.Module...)}. */
    public static final class Module extends AbstractModule {
        @Override
        protected void configure() {
            pluginBinder(binder()).bindPlugin(NAME, Factory.class);
        }
    }
}
