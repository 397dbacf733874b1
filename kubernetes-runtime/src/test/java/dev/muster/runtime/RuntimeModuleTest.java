package dev.muster.runtime;

import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Inject;
import com.google.inject.Singleton;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.runtime.controller.Controller;
import dev.muster.runtime.kubernetes.TestingApiServer;
import dev.muster.runtime.leader.LeaseConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The production wiring against a test API server: a contributed controller runs exactly while its replica leads. */
class RuntimeModuleTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final TestingApiServer server = new TestingApiServer();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aContributedControllerRunsOnlyOnTheReplicaThatLeadsAndMovesWithTheLease() throws InterruptedException {
        // given: two replicas campaigning for one Lease, each with a counting controller
        AtomicInteger running = new AtomicInteger();
        Replica first = new Replica(running, "first");
        first.runtime.start();
        await().atMost(WAIT).until(() -> first.terms.get() == 1);
        Replica second = new Replica(running, "second");
        second.runtime.start();

        // then: one controller runs, the leader's; the runtime's registry has the scheduler's and the JVM's metrics
        assertThat(running.get()).isEqualTo(1);
        assertThat(first.runtime.registry().scrape().stream().map(metric -> metric.getMetadata().getPrometheusName()))
                .contains("muster_cycles", "muster_leader", "jvm_memory_used_bytes", "jvm_threads_current");
        assertThat(second.terms.get()).isZero();

        // when: the leader stops, releasing the Lease
        first.runtime.stop();

        // then: the standby's controller starts, and only it runs
        await().atMost(WAIT).until(() -> second.terms.get() == 1);
        assertThat(running.get()).isEqualTo(1);
        second.runtime.stop();
        assertThat(running.get()).isZero();
        first.client.close();
        second.client.close();
    }

    private final class Replica {
        final KubernetesClient client = server.newClient();
        final AtomicInteger terms = new AtomicInteger();
        final KubernetesRuntime runtime;

        Replica(AtomicInteger running, String identity) {
            LeaseConfig lease = new LeaseConfig("default", "muster-scheduler", identity, Duration.ofSeconds(4), Duration.ofSeconds(3),
                    Duration.ofMillis(200));
            RuntimeOptions options = new RuntimeOptions(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text(), Set.of("muster"),
                    Duration.ofMillis(100), Optional.of(lease));
            this.runtime = Guice.createInjector(new EngineModule(), new KubernetesModule(client), new RuntimeModule(options),
                    new AbstractModule() {
                        @Override
                        protected void configure() {
                            bind(Clock.class).toInstance(Clock.systemUTC());
                            bind(AtomicInteger.class).toInstance(running);
                            bind(Replica.class).toInstance(Replica.this);
                            controllerBinder(binder()).addController(Counting.class);
                        }
                    }).getInstance(KubernetesRuntime.class);
        }
    }

    @Singleton
    static final class Counting implements Controller {
        private final AtomicInteger running;
        private final Replica replica;

        @Inject
        Counting(AtomicInteger running, Replica replica) {
            this.running = running;
            this.replica = replica;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public void start() {
            running.incrementAndGet();
            replica.terms.incrementAndGet();
        }

        @Override
        public void stop() {
            running.decrementAndGet();
        }
    }
}
