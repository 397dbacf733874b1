package dev.muster.bridge.airflow.api;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Test resources: answers recorded from the real Airflow. */
final class Fixtures {
    /** The access_token of {@code airflow-v2/token.json}. */
    static final String TOKEN = "recorded-airflow-3.3.2-jwt";

    private Fixtures() {}

    static String read(String resource) {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
