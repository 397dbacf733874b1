package dev.muster.sim.policy;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.sim.SimulationException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A policy to compare, by name: {@code baseline} (the default kube-scheduler model),
 * {@code muster} (the built-in default configuration), {@code volcano} (the built-in {@code volcano.conf},
 * Volcano's Helm default, Muster's default before issue 18) or {@code conf:PATH} (a
 * scheduler configuration file in Volcano's format). Each run gets a fresh instance.
 *
 * @param config the engine configuration; empty for the baseline
 */
public record PolicySpec(String name, Optional<SessionConfig> config) {
    public static final String BASELINE = "baseline";
    public static final String MUSTER = "muster";
    public static final String VOLCANO = "volcano";
    public static final String CONF_PREFIX = "conf:";

    public PolicySpec {
        requireNonNull(name, "name is null");
        requireNonNull(config, "config is null");
    }

    public SchedulingPolicy newInstance(long seed) {
        return config.<SchedulingPolicy>map(EnginePolicy::new).orElseGet(() -> new BaselinePolicy(seed));
    }

    /**
     * Reads a comma-separated list of policy names.
     *
     * @throws SimulationException for an unknown name, a duplicate or a configuration that cannot be used
     */
    public static ImmutableList<PolicySpec> parseList(String names, SchedulerConfigLoader loader) {
        Set<String> seen = new LinkedHashSet<>();
        ImmutableList.Builder<PolicySpec> policies = ImmutableList.builder();
        for (String raw : names.split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!seen.add(name)) {
                throw new SimulationException("policy '" + name + "' is listed twice");
            }
            policies.add(parse(name, loader));
        }
        if (seen.isEmpty()) {
            throw new SimulationException("no policy given: use baseline, muster, volcano or conf:PATH");
        }
        return policies.build();
    }

    public static PolicySpec parse(String name, SchedulerConfigLoader loader) {
        if (name.equals(BASELINE)) {
            return new PolicySpec(name, Optional.empty());
        }
        try {
            if (name.equals(MUSTER)) {
                return new PolicySpec(name, Optional.of(loader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())));
            }
            if (name.equals(VOLCANO)) {
                return new PolicySpec(name, Optional.of(loader.parse(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText())));
            }
            if (name.startsWith(CONF_PREFIX) && name.length() > CONF_PREFIX.length()) {
                Path path = Path.of(name.substring(CONF_PREFIX.length()));
                return new PolicySpec(name, Optional.of(loader.load(path)));
            }
        } catch (ConfigException e) {
            throw new SimulationException("policy " + name + ": " + e.getMessage(), e);
        }
        throw new SimulationException("unknown policy '" + name + "': use baseline, muster, volcano or conf:PATH");
    }
}
