package dev.muster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One scheduling case: a cluster, a configuration and the expected decisions. The committed cases are
 * under {@link #COMMITTED}; the system property {@value #DIRECTORY_PROPERTY} names another folder of
 * cases in the same layout to run instead (e.g. {@code ./mvnw -B -pl cli -am verify -Dtest=ConformanceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dmuster.conformance.cases=/tmp/cases}).
 */
record ConformanceCase(String name, Path directory, JsonNode expected) {
    static final Path COMMITTED = Path.of("src/test/resources/conformance/volcano");
    static final String DIRECTORY_PROPERTY = "muster.conformance.cases";

    Path cluster() {
        return directory.resolve("cluster.yaml");
    }

    Path config() {
        return directory.resolve("scheduler.conf");
    }

    @Override
    public String toString() {
        return name;
    }

    /** The cases of the folder the system property names, or the committed ones. */
    static List<ConformanceCase> selected() {
        String directory = System.getProperty(DIRECTORY_PROPERTY, "");
        return in(directory.isBlank() ? COMMITTED : Path.of(directory));
    }

    /** Every subfolder of {@code root} is a case; it must have an {@code expected.json}. */
    static List<ConformanceCase> in(Path root) {
        ObjectMapper mapper = new ObjectMapper();
        List<ConformanceCase> cases = new ArrayList<>();
        try (Stream<Path> directories = Files.list(root)) {
            for (Path directory : directories.filter(Files::isDirectory).sorted().toList()) {
                cases.add(new ConformanceCase(directory.getFileName().toString(), directory,
                        mapper.readTree(directory.resolve("expected.json").toFile())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases;
    }
}
