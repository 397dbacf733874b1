package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import dev.muster.bridge.argo.ArgoApi;
import dev.muster.engine.cache.ManifestReader;
import dev.muster.engine.cache.ManifestResult;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One scheduling session over a cluster dump: read the manifests, run the configured actions, and
 * return the decisions with what was wrong in the input. The {@code what-if} command and the
 * conformance tests share this path.
 */
public final class WhatIf {
    private final SchedulerConfigLoader configLoader;
    private final Clock clock;

    @Inject
    public WhatIf(SchedulerConfigLoader configLoader, Clock clock) {
        this.configLoader = requireNonNull(configLoader, "configLoader is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * The manifests as read (with their problems), the session's decisions, and what the Argo bridge's
     * workflow admission would do with the dump's Workflows (empty when none takes part).
     */
    public record Outcome(ManifestResult manifests, SessionResult decisions, ImmutableList<WorkflowAdmissions.Row> workflows) {
        public Outcome {
            workflows = ImmutableList.copyOf(workflows);
        }
    }

    /**
     * @throws dev.muster.engine.config.ConfigException when the configuration cannot be used
     * @throws dev.muster.engine.cache.ManifestException when a path does not exist or a file cannot be read at all
     */
    public Outcome run(List<Path> manifests, Optional<Path> config, Set<String> schedulerNames) {
        SessionConfig sessionConfig = config.map(configLoader::load)
                .orElseGet(() -> configLoader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text()));
        // the Workflows are workflow admission's to read: not an unknown kind here
        ManifestResult read = new ManifestReader(schedulerNames).readElsewhere(ArgoApi.API_VERSION, ArgoApi.WORKFLOW_KIND).read(manifests);
        return new Outcome(read, Session.run(read.snapshot(), sessionConfig, clock),
                WorkflowAdmissions.of(manifests, read.snapshot(), sessionConfig, clock));
    }
}
