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

/** One scheduling case of {@code src/test/resources/conformance/volcano}: a cluster, a configuration and the expected decisions. */
record ConformanceCase(String name, Path directory, JsonNode expected) {
    static final Path ROOT = Path.of("src/test/resources/conformance/volcano");

    Path cluster() {
        return directory.resolve("cluster.yaml");
    }

    Path config() {
        return directory.resolve("scheduler.conf");
    }

    boolean networkTopology() {
        for (JsonNode tag : expected.path("tags")) {
            if (tag.asText().equals("network-topology")) {
                return true;
            }
        }
        return name.contains("NetWorkTopolog") || name.contains("NetworkTopology");
    }

    @Override
    public String toString() {
        return name;
    }

    static List<ConformanceCase> all() {
        ObjectMapper mapper = new ObjectMapper();
        List<ConformanceCase> cases = new ArrayList<>();
        try (Stream<Path> directories = Files.list(ROOT)) {
            for (Path directory : directories.sorted().toList()) {
                cases.add(new ConformanceCase(directory.getFileName().toString(), directory,
                        mapper.readTree(directory.resolve("expected.json").toFile())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases;
    }
}
