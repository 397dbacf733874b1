package dev.muster.runtime.history;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HistoryCodecTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant FINISHED = Instant.parse("2026-12-08T01:00:00Z");
    private static final String GOOD = """
            {"namespace": "ml", "name": "good", "queue": "default", "finished": "2026-12-08T01:00:00Z", "run": "PT90S",
             "requested": {"cpu": 2000, "memory": 1024}}""";

    @Test
    void aHistoryReadsBackAsItWasWritten() {
        // given
        JobHistory history = new JobHistory(ImmutableList.of(
                job("train-1", Duration.ofSeconds(90), ImmutableMap.of("team", "vision")),
                new FinishedJob(new JobId("ml", "train-2"), new QueueName("gpu"), ImmutableMap.of(),
                        Resources.of(4000, 8.0 * 1024 * 1024 * 1024).withScalar(Resources.GPU, 2000), FINISHED.plusSeconds(5),
                        Duration.ofMillis(1500))));

        // when
        HistoryCodec.Decoded decoded = HistoryCodec.decode(HistoryCodec.encode(history));

        // then
        assertThat(decoded.problems()).isEmpty();
        assertThat(decoded.history()).isEqualTo(history);
    }

    static Stream<Arguments> badEntries() {
        return Stream.of(
                Arguments.of("a negative run time", entry("run", "\"PT-5S\""), "jobs[1] (ml/bad): run 'PT-5S' is negative"),
                Arguments.of("a run time that is not a duration", entry("run", "\"5 minutes\""),
                        "jobs[1] (ml/bad): run '5 minutes' is not an ISO-8601 duration"),
                Arguments.of("a finish that is not an instant", entry("finished", "\"yesterday\""),
                        "jobs[1] (ml/bad): finished 'yesterday' is not an ISO-8601 instant"),
                Arguments.of("no queue", entry("queue", "7"), "jobs[1] (ml/bad): queue is '7', not a non-empty string"),
                Arguments.of("a request that is not a quantity", entry("requested", "{\"cpu\": \"lots\"}"),
                        "jobs[1] (ml/bad): requested cpu is '\"lots\"', not a quantity"),
                Arguments.of("a negative request", entry("requested", "{\"memory\": -1}"),
                        "jobs[1] (ml/bad): requested memory is '-1', not a quantity"),
                Arguments.of("an annotation that is not a string", entry("annotations", "{\"team\": {\"a\": 1}}"),
                        "jobs[1] (ml/bad): annotation team is '{\"a\":1}', not a string"),
                Arguments.of("an entry that is not an object", "42", "jobs[1] (?/?): not an object: 42"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badEntries")
    void aBadEntryIsLeftOutAndNamedAndTheOthersAreKept(String description, String bad, String problem) {
        // when
        HistoryCodec.Decoded decoded = HistoryCodec.decode("{\"jobs\": [" + GOOD + ", " + bad + ", " + GOOD.replace("good", "later") + "]}");

        // then
        assertThat(decoded.problems()).containsExactly(problem);
        assertThat(decoded.history().jobs()).extracting(job -> job.id().name()).containsExactly("good", "later");
        assertThat(decoded.history().jobs().get(0).run()).isEqualTo(Duration.ofSeconds(90));
        assertThat(decoded.history().jobs().get(0).requested()).isEqualTo(Resources.of(2000, 1024));
    }

    @Test
    void textThatIsNotJsonGivesAnEmptyHistoryAndSaysSo() {
        // when
        HistoryCodec.Decoded decoded = HistoryCodec.decode("{\"jobs\": [" + GOOD);

        // then
        assertThat(decoded.history().isEmpty()).isTrue();
        assertThat(decoded.problems()).singleElement().asString().startsWith("not JSON: ");
    }

    @Test
    void theOldestJobsAreLeftOutWhenTheHistoryWouldNotFitInAConfigMap() {
        // given: jobs of about 1 KB each, far more than fit
        String team = "t".repeat(HistoryCodec.MAX_ANNOTATION_VALUE);
        JobHistory history = JobHistory.EMPTY;
        for (int i = 0; i < 3000; i++) {
            ImmutableMap.Builder<String, String> annotations = ImmutableMap.builder();
            for (int a = 0; a < 3; a++) {
                annotations.put("example.com/team-" + a, team);
            }
            history = history.with(job("train-" + i, Duration.ofSeconds(i), annotations.buildOrThrow()), 5000);
        }

        // when
        String encoded = HistoryCodec.encode(history);

        // then: under the cap, and what is kept is the newest, in order
        assertThat(encoded.getBytes(UTF_8).length).isLessThanOrEqualTo(HistoryCodec.MAX_BYTES).isGreaterThan(HistoryCodec.MAX_BYTES - 2000);
        ImmutableList<FinishedJob> kept = HistoryCodec.decode(encoded).history().jobs();
        assertThat(kept.size()).isLessThan(3000);
        assertThat(kept).isEqualTo(history.jobs().subList(3000 - kept.size(), 3000));
    }

    @Test
    void onlyShortAnnotationsAreKeptAndAtMostSoMany() {
        // given
        ImmutableMap.Builder<String, String> annotations = ImmutableMap.builder();
        annotations.put("kubectl.kubernetes.io/last-applied-configuration", "{" + "x".repeat(5000) + "}");
        for (int i = 0; i < HistoryCodec.MAX_ANNOTATIONS + 5; i++) {
            annotations.put(String.format("example.com/a%02d", i), "v" + i);
        }

        // when
        ImmutableMap<String, String> kept = HistoryCodec.kept(annotations.buildOrThrow());

        // then: the long one dropped, the first of the others by name kept
        assertThat(kept).hasSize(HistoryCodec.MAX_ANNOTATIONS)
                .doesNotContainKey("kubectl.kubernetes.io/last-applied-configuration")
                .containsEntry("example.com/a00", "v0")
                .doesNotContainKey(String.format("example.com/a%02d", HistoryCodec.MAX_ANNOTATIONS));
    }

    /** The good entry, renamed {@code bad}, with one field set to a JSON value. */
    private static String entry(String field, String json) {
        try {
            ObjectNode entry = (ObjectNode) MAPPER.readTree(GOOD.replace("good", "bad"));
            entry.set(field, MAPPER.readTree(json));
            return entry.toString();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** A finished job of queue {@code default}, 1 cpu, finished at {@link #FINISHED}. */
    private static FinishedJob job(String name, Duration run, ImmutableMap<String, String> annotations) {
        return new FinishedJob(new JobId("ml", name), new QueueName("default"), annotations, Resources.of(1000, 0), FINISHED, run);
    }
}
