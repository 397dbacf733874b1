package dev.muster.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobStatusJsonTest {
    @Test
    void writtenStatusReadsBackTheSame() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        JobStatus status = JobStatus.NEW.withMinAvailable(3).transition(JobPhase.PENDING, "", "", t0)
                .withCounts(new PodCounts(1, 2, 0, 0, 0, 0), ImmutableSortedMap.of("worker",
                        ImmutableSortedMap.of(PodPhase.PENDING, 1, PodPhase.RUNNING, 2)))
                .transition(JobPhase.RUNNING, "", "", t0.plusSeconds(90))
                .withRetryCount(1).withVersion(2).withRunningDuration(Duration.ofSeconds(90)).withControlledResource("plugin-svc", "svc");
        ObjectNode manifest = (ObjectNode) TestingJobs.fixtureJobManifest("mpi-ssh-svc.yaml").deepCopy();

        manifest.set("status", JobStatusJson.write(status));

        assertThat(VolcanoJobReader.read(manifest).orElseThrow().status()).isEqualTo(status);
        assertThat(manifest.path("status").path("state").path("phase").asText()).isEqualTo("Running");
        assertThat(manifest.path("status").path("taskStatusCount").path("worker").path("phase").path("Running").asInt()).isEqualTo(2);
        assertThat(manifest.path("status").has("succeeded")).isFalse();
    }

    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("seconds", "90s", Duration.ofSeconds(90), "1m30s"),
                Arguments.of("hours and minutes", "1h30m", Duration.ofMinutes(90), "1h30m0s"),
                Arguments.of("a fraction", "1.5h", Duration.ofMinutes(90), "1h30m0s"),
                Arguments.of("milliseconds", "250ms", Duration.ofMillis(250), "250ms"),
                Arguments.of("zero", "0", Duration.ZERO, "0s"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durations")
    void goDurations(String description, String text, Duration duration, String formatted) {
        assertThat(GoDuration.parse(text)).isEqualTo(duration);
        assertThat(GoDuration.format(duration)).isEqualTo(formatted);
    }

    @Test
    void notADuration() {
        assertThatThrownBy(() -> GoDuration.parse("5 minutes")).hasMessageStartingWith("'5 minutes' is not a duration such as 90s, 1m30s, 1.5h or 500ms");
    }
}
