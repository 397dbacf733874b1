package dev.muster.engine.plugins.conformance;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Keeps critical pods safe: never evicts system-critical priority classes or pods in kube-system. */
public final class ConformancePlugin implements Plugin, VictimSelector {
    public static final String NAME = "conformance";

    private static final Set<String> CRITICAL_CLASSES = ImmutableSet.of("system-cluster-critical", "system-node-critical");
    private static final String SYSTEM_NAMESPACE = "kube-system";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<List<TaskState>> preemptable(TaskState preemptor, List<TaskState> candidates) {
        return Optional.of(evictable(candidates));
    }

    @Override
    public Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        return Optional.of(evictable(candidates));
    }

    private static List<TaskState> evictable(List<TaskState> candidates) {
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : candidates) {
            if (CRITICAL_CLASSES.contains(candidate.task().priorityClassName())
                    || candidate.id().namespace().equals(SYSTEM_NAMESPACE)) {
                continue;
            }
            victims.add(candidate);
        }
        return victims;
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
            return new ConformancePlugin();
        }
    }
}
