package dev.muster.bridge.airflow.pods;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link SafeLabelValue} against the real {@code make_safe_label_value} of the airflow peer's provider. */
class SafeLabelValueTest {
    private static final List<String> VALUES = List.of(
            "muster_diamond",
            "train",
            "manual__2026-12-01T22:56:58.266131+00:00",
            "scheduled__2026-12-01T00:00:00+00:00",
            "asset_triggered__2026-12-01T22:56:58.266131+00:00",
            "a_task_id_that_is_much_longer_than_sixty_three_characters_for_a_label_value",
            "-leading.and.trailing-",
            "ünïcode task");

    @Test
    void matchesAirflowsOwnFunction() throws Exception {
        InstalledPeer airflow = PeerInstaller.locate().install(List.of("airflow")).get("airflow");
        // the peer's virtual environment, as peers/install lays it out beside the peer's directory
        Path python = airflow.executable().getParent().getParent()
                .resolve(".venv-" + airflow.name() + "-" + airflow.version()).resolve("bin/python3");
        String script = "import json, sys\n"
                + "from airflow.providers.cncf.kubernetes.pod_generator import make_safe_label_value\n"
                + "print(json.dumps({value: make_safe_label_value(value) for value in json.load(sys.stdin)}))\n";
        Process process = new ProcessBuilder(python.toString(), "-c", script).redirectErrorStream(false).start();
        process.getOutputStream().write(new ObjectMapper().writeValueAsBytes(VALUES));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("python finished").isTrue();
        assertThat(process.exitValue()).as("python's exit code; its stderr: %s", errors).isZero();
        Map<String, String> airflowSays = new ObjectMapper().readValue(output.lines().reduce((first, last) -> last).orElseThrow(),
                new TypeReference<Map<String, String>>() {});

        assertThat(airflowSays).hasSize(VALUES.size());
        VALUES.forEach(value -> assertThat(SafeLabelValue.of(value)).as(value).isEqualTo(airflowSays.get(value)));
        assertThat(airflowSays.get("manual__2026-12-01T22:56:58.266131+00:00")).isNotEqualTo("manual__2026-12-01T22:56:58.266131+00:00");
    }
}
