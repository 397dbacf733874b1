package dev.muster.runtime.kubernetes;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.runtime.binding.DecisionWriter;
import dev.muster.runtime.history.CycleHistory;
import dev.muster.runtime.informers.CacheInformers;
import dev.muster.runtime.scheduler.CycleReport;
import dev.muster.runtime.scheduler.Scheduler;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** The scheduler wired as {@code muster run} wires it, against a test API server. */
public final class LiveScheduler implements AutoCloseable {
    private final ClusterCache cache;
    private final CacheInformers informers;
    private final Scheduler scheduler;
    private final List<CycleReport> reports = new CopyOnWriteArrayList<>();

    private LiveScheduler(KubernetesClient client, SessionConfig config, Clock clock, CycleHistory history) {
        this.cache = new ClusterCache(Set.of("muster"), clock);
        this.informers = new CacheInformers(client, cache);
        this.scheduler = new Scheduler(cache, config, DecisionWriter.connect(client, cache, 8, clock),
                Duration.ofMillis(50), clock, reports::add, history);
    }

    /** Starts the informers and waits for their first list; the loop is not started. */
    public static LiveScheduler connect(KubernetesClient client) throws InterruptedException {
        return connect(client, DefaultSchedulerConfig.text());
    }

    /** With no informers: the test feeds the cache ({@code TestingCacheFeed}) and says which kinds are synced. */
    public static LiveScheduler unconnected(KubernetesClient client) {
        return new LiveScheduler(client, TestingScheduler.loader().parse("test.conf", DefaultSchedulerConfig.text()), Clock.systemUTC(),
                CycleHistory.NONE);
    }

    public static LiveScheduler connect(KubernetesClient client, String configYaml) throws InterruptedException {
        return connect(client, configYaml, CycleHistory.NONE);
    }

    /** With the job history {@code history} keeps. */
    public static LiveScheduler connect(KubernetesClient client, String configYaml, CycleHistory history) throws InterruptedException {
        LiveScheduler live = new LiveScheduler(client, TestingScheduler.loader().parse("test.conf", configYaml),
                Clock.systemUTC(), history);
        live.informers.start(Duration.ofSeconds(5));
        return live;
    }

    public ClusterCache cache() {
        return cache;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    public CycleReport runCycle() throws InterruptedException {
        return scheduler.runCycle();
    }

    public ImmutableList<CycleReport> reports() {
        return ImmutableList.copyOf(reports);
    }

    @Override
    public void close() throws InterruptedException {
        scheduler.stop();
        informers.stop();
    }
}
