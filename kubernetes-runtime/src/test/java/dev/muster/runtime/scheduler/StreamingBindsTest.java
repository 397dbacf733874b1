package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.binding.DecisionWriter;
import dev.muster.runtime.informers.CacheInformers;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A gang's binds leave while the session is still running, not after the whole cycle. */
class StreamingBindsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aGangsBindsReachTheApiServerBeforeTheSessionEnds() throws InterruptedException {
        // given: an action after allocate that waits, inside the same session, for the gang's binds
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("train", 3, "default", "1"));
        List<Integer> seenDuringSession = new CopyOnWriteArrayList<>();
        Action awaitBinds = new Action() {
            @Override
            public String name() {
                return "await-binds";
            }

            @Override
            public void execute(Session session) {
                seenDuringSession.add(awaitBindingRequests(List.of("default/train-0", "default/train-1", "default/train-2")));
            }
        };
        ClusterCache cache = new ClusterCache(Set.of("muster"), Clock.systemUTC());
        CacheInformers informers = new CacheInformers(client, cache);
        informers.start(Duration.ofSeconds(5));
        Scheduler scheduler = new Scheduler(cache, withAction(awaitBinds), DecisionWriter.connect(client, cache, 8, Clock.systemUTC()),
                Duration.ofMillis(50), Clock.systemUTC(), report -> {});
        try {
            // when
            CycleReport report = scheduler.runCycle();

            // then
            assertThat(seenDuringSession).containsExactly(3);
            assertThat(report.written().binds()).extracting(BindResult::status).containsOnly(BindResult.Status.BOUND).hasSize(3);
            assertThat(client.pods().inNamespace("default").list().getItems())
                    .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo("n1"));
        } finally {
            informers.stop();
        }
    }

    /** The built-in configuration with only {@code enqueue, allocate}, then {@code extra}. */
    private static SessionConfig withAction(Action extra) {
        SessionConfig parsed = TestingScheduler.loader().parse("test.conf",
                DefaultSchedulerConfig.text().replaceFirst("actions: \"[^\"]*\"", "actions: \"enqueue, allocate\""));
        assertThat(parsed.actions()).extracting(Action::name).containsExactly("enqueue", "allocate");
        return new SessionConfig(ImmutableList.<Action>builder().addAll(parsed.actions()).add(extra).build(), parsed.tiers());
    }

    /** How many of these pods' Binding requests reached the server within {@link #WAIT}, waiting on the session's thread. */
    private int awaitBindingRequests(List<String> pods) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        AtomicInteger seen = new AtomicInteger();
        while (System.nanoTime() < deadline) {
            seen.set((int) pods.stream().filter(pod -> server.bindingRequests(pod) == 1).count());
            if (seen.get() == pods.size()) {
                break;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return seen.get();
    }
}
