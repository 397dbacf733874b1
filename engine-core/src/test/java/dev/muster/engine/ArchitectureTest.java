package dev.muster.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Kubernetes client types stay at the edge (cache/, binding/): the scheduling logic sees plain records. */
class ArchitectureTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/muster/engine");

    @ParameterizedTest(name = "{0} does not import fabric8")
    @ValueSource(strings = {"model", "framework", "actions", "plugins", "config"})
    void schedulingLogicDoesNotSeeKubernetesClientTypes(String pkg) throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES.resolve(pkg))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    if (line.startsWith("import io.fabric8") || line.startsWith("import static io.fabric8")) {
                        offenders.add(SOURCES.relativize(file) + ": " + line);
                    }
                }
            }
        }
        assertThat(offenders).isEmpty();
    }
}
