package dev.muster.engine.testing;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Runs one scheduling session over a scenario with a configuration given as Volcano YAML. */
public final class TestingScheduler {
    private static final Injector INJECTOR = Guice.createInjector(new EngineModule());
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC);

    private final SessionConfig config;

    private TestingScheduler(SessionConfig config) {
        this.config = config;
    }

    public static SchedulerConfigLoader loader() {
        return INJECTOR.getInstance(SchedulerConfigLoader.class);
    }

    /** A scheduler whose configuration may also name the plugins of extra test modules. */
    public static TestingScheduler withConfig(String yaml, Module... extraModules) {
        List<Module> modules = new ArrayList<>(List.of(extraModules));
        modules.add(new EngineModule());
        Injector injector = Guice.createInjector(modules);
        return new TestingScheduler(injector.getInstance(SchedulerConfigLoader.class).parse("test.conf", yaml));
    }

    /** A scheduler with the given configuration text ({@code actions: ..., tiers: ...}). */
    public static TestingScheduler withConfig(String yaml) {
        return new TestingScheduler(loader().parse("test.conf", yaml));
    }

    /** Opens a session and runs the configured actions without closing it, to look at its state. */
    public Session runActions(ClusterSnapshot snapshot) {
        Session session = Session.open(snapshot, config, CLOCK);
        config.actions().forEach(action -> action.execute(session));
        return session;
    }

    public SessionResult runOnce(ClusterSnapshot snapshot) {
        return Session.run(snapshot, config, CLOCK);
    }
}
