package dev.muster.runtime.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.runtime.SettableClock;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true, https = false)
class JobHistoryStoreTest {
    private static final Instant T0 = Instant.parse("2026-12-08T01:00:00Z");
    private static final HistoryOptions OPTIONS = new HistoryOptions(Optional.empty(), "muster-job-history", 1000, Duration.ofSeconds(30));

    private KubernetesMockServer server;
    private KubernetesClient client;
    private final SettableClock clock = new SettableClock(T0);

    @Test
    void finishedJobsAreWrittenAtMostOncePerPeriodAndOnceMoreWhenTheTermEnds() {
        // given
        JobHistoryStore store = new JobHistoryStore(client, "muster-system", OPTIONS, clock);
        store.load();

        // when: a job finishes: the first write goes at once
        finish(store, "first", 0);
        // then
        assertThat(stored().jobs()).extracting(job -> job.id().name()).containsExactly("first");

        // when: a second one finishes 10 s later: it waits for the period
        finish(store, "second", 10);
        // then
        assertThat(stored().jobs()).extracting(job -> job.id().name()).containsExactly("first");
        assertThat(store.history().jobs()).extracting(job -> job.id().name()).containsExactly("first", "second");

        // when: the period has passed
        clock.set(T0.plusSeconds(31));
        store.observe(TestingGangs.running("idle", T0, T0));
        // then
        assertThat(stored().jobs()).extracting(job -> job.id().name()).containsExactly("first", "second");

        // when: a third finishes and the term ends before the period has passed
        finish(store, "third", 35);
        store.flush();
        // then
        assertThat(stored().jobs()).extracting(job -> job.id().name()).containsExactly("first", "second", "third");
    }

    @Test
    void aNewStoreLoadsWhatAnEarlierOneWroteAndKeepsTheNewestOfItsLimit() {
        // given: a scheduler that recorded three jobs, then stopped
        JobHistoryStore before = new JobHistoryStore(client, "muster-system", OPTIONS.withWriteEvery(Duration.ZERO), clock);
        before.load();
        finish(before, "a", 0);
        finish(before, "b", 10);
        finish(before, "c", 20);

        // when: a new one, keeping two, starts
        JobHistoryStore after = new JobHistoryStore(client, "muster-system", OPTIONS.withLimit(2), clock);
        after.load();

        // then
        assertThat(after.history().jobs()).extracting(job -> job.id().name()).containsExactly("b", "c");
        assertThat(after.history().jobs().get(1).run()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aConfigMapWithABadEntryLoadsTheOthersAndNamesTheBadOne() {
        // given
        String good = "{\"namespace\": \"ml\", \"name\": \"good\", \"queue\": \"default\", \"finished\": \"2026-12-08T01:00:00Z\", "
                + "\"run\": \"PT1M\", \"requested\": {\"cpu\": 1000}}";
        client.configMaps().inNamespace("muster-system").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("muster-job-history").endMetadata()
                .addToData(JobHistoryStore.KEY, "{\"jobs\": [" + good + ", " + good.replace("PT1M", "PT-1M").replace("good", "bad") + "]}")
                .build()).create();
        JobHistoryStore store = new JobHistoryStore(client, "muster-system", OPTIONS, clock);

        // when
        List<String> problems = store.load();

        // then
        assertThat(problems).containsExactly("jobs[1] (ml/bad): run 'PT-1M' is negative");
        assertThat(store.history().jobs()).extracting(job -> job.id().name()).containsExactly("good");
    }

    @Test
    void aConfigMapThatCouldNotBeReadWhenTheTermBeganIsReadBeforeItIsWrittenSoWhatItHeldIsKept() {
        // given: a stored history, and an API server that refuses the first read (a Role from before the history, since fixed)
        JobHistoryStore earlier = new JobHistoryStore(client, "muster-system", OPTIONS, clock);
        earlier.load();
        finish(earlier, "stored", 0);
        server.expect().get().withPath("/api/v1/namespaces/muster-system/configmaps/muster-job-history")
                .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").build()).once();
        JobHistoryStore store = new JobHistoryStore(client, "muster-system", OPTIONS, clock);

        // when
        store.load();
        boolean readAtStart = !store.history().isEmpty();
        finish(store, "new", 100);

        // then
        assertThat(readAtStart).isFalse();
        assertThat(stored().jobs()).extracting(job -> job.id().name()).containsExactly("stored", "new");
    }

    /** The gang {@code ml/NAME} is seen running from {@code seconds} - 60 s, then finished {@code seconds} after T0. */
    private void finish(JobHistoryStore store, String name, long seconds) {
        Instant at = T0.plusSeconds(seconds);
        ClusterSnapshot running = TestingGangs.running(name, at.minusSeconds(60), at.minusSeconds(60));
        clock.set(at.minusSeconds(1));
        store.observe(running);
        clock.set(at);
        JobHistory history = store.observe(TestingGangs.succeeded(running));
        assertThat(history.jobs()).extracting(FinishedJob::id).contains(running.jobs().firstKey());
    }

    private JobHistory stored() {
        ConfigMap map = client.configMaps().inNamespace("muster-system").withName("muster-job-history").get();
        assertThat(map).as("the ConfigMap muster-system/muster-job-history").isNotNull();
        HistoryCodec.Decoded decoded = HistoryCodec.decode(map.getData().get(JobHistoryStore.KEY));
        assertThat(decoded.problems()).isEmpty();
        return decoded.history();
    }
}
