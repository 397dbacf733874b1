package dev.muster.sim.policy;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.time.Clock;

/** Muster's engine: one {@link Session} per cycle with the given configuration, as {@code muster run} does. */
public final class EnginePolicy implements SchedulingPolicy {
    private final SessionConfig config;

    public EnginePolicy(SessionConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    @Override
    public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
        return Session.run(snapshot, config, clock);
    }
}
