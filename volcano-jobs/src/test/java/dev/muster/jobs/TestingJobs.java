package dev.muster.jobs;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Volcano Jobs for tests: fixtures from {@code src/test/resources/jobs}, or YAML text, given a uid and a creation time. */
public final class TestingJobs {
    public static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private TestingJobs() {}

    /** Every document of a fixture. */
    public static List<JsonNode> fixture(String name) {
        try (InputStream in = TestingJobs.class.getResourceAsStream("/jobs/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            String text = new String(in.readAllBytes(), UTF_8);
            List<JsonNode> documents = new ArrayList<>();
            try (YAMLParser parser = new YAMLFactory().createParser(text)) {
                YAML.readValues(parser, JsonNode.class).forEachRemaining(documents::add);
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Job of a fixture (its first Job document), as the API server hands it over: with a uid and a creation time. */
    public static VolcanoJob fixtureJob(String name) {
        return job(fixtureJobManifest(name));
    }

    /** The first Job document of a fixture, as written (a fixture may bring the namespace, queue or priority class it needs first). */
    public static JsonNode fixtureJobManifest(String name) {
        return fixture(name).stream().filter(document -> document.path("kind").asText().equals(VolcanoJob.KIND)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Job in fixture " + name));
    }

    public static VolcanoJob job(String yaml) {
        try {
            return job(YAML.readTree(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static VolcanoJob job(JsonNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        ObjectNode metadata = copy.with("metadata");
        metadata.put("uid", "uid-1");
        metadata.put("creationTimestamp", CREATED.toString());
        return VolcanoJobReader.read(copy).orElseThrow();
    }
}
