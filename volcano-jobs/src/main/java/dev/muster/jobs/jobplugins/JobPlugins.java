package dev.muster.jobs.jobplugins;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.VolcanoJobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds a job's plugins from {@code spec.plugins}, reporting unknown plugins and bad arguments. */
public final class JobPlugins {
    public static final ImmutableSet<String> NAMES = ImmutableSet.of(EnvJobPlugin.NAME, SvcJobPlugin.NAME, SshJobPlugin.NAME,
            TensorflowJobPlugin.NAME, PytorchJobPlugin.NAME);
    /** Volcano plugins Muster does not have yet. */
    private static final ImmutableSet<String> NOT_YET = ImmutableSet.of("mpi", "ray", "hcclrank");

    private JobPlugins() {}

    /** The plugins in {@code spec.plugins} order, or the problems (each {@code spec.plugins.<name>: ...}). */
    public static JobReadResult<ImmutableList<JobPlugin>> create(VolcanoJobSpec spec, SshKeyGenerator keys) {
        List<String> problems = new ArrayList<>();
        ImmutableList.Builder<JobPlugin> plugins = ImmutableList.builder();
        for (Map.Entry<String, ImmutableList<String>> entry : spec.plugins().entrySet()) {
            String name = entry.getKey();
            List<String> arguments = entry.getValue();
            switch (name) {
                case EnvJobPlugin.NAME -> {
                    JobPluginFlags.parse(name, arguments, ImmutableSet.of(), ImmutableSet.of(), problems);
                    plugins.add(new EnvJobPlugin());
                }
                case SvcJobPlugin.NAME -> plugins.add(new SvcJobPlugin(JobPluginFlags.parse(name, arguments, SvcJobPlugin.BOOLEAN_FLAGS, ImmutableSet.of(), problems)));
                case SshJobPlugin.NAME -> plugins.add(new SshJobPlugin(JobPluginFlags.parse(name, arguments, ImmutableSet.of(), SshJobPlugin.VALUE_FLAGS, problems), keys));
                case TensorflowJobPlugin.NAME -> plugins.add(new TensorflowJobPlugin(
                        JobPluginFlags.parse(name, arguments, ImmutableSet.of(), TensorflowJobPlugin.VALUE_FLAGS, problems)));
                case PytorchJobPlugin.NAME -> plugins.add(new PytorchJobPlugin(
                        JobPluginFlags.parse(name, arguments, ImmutableSet.of(), PytorchJobPlugin.VALUE_FLAGS, problems)));
                default -> problems.add("spec.plugins." + name + ": " + (NOT_YET.contains(name)
                        ? "not supported by Muster yet"
                        : "unknown plugin (known: " + String.join(", ", NAMES) + ")"));
            }
        }
        Optional<ImmutableList<JobPlugin>> built = problems.isEmpty() ? Optional.of(plugins.build()) : Optional.empty();
        return new JobReadResult<>(built, ImmutableList.copyOf(problems));
    }
}
