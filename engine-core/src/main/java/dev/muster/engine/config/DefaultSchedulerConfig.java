package dev.muster.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The built-in configurations: Muster's default, used when none is given ({@code default-scheduler.conf}:
 * issue 18's admission by placeability, shortest expected work first and lending of idle share, without
 * reclaim), and Volcano's Helm default with {@code admit-within-deserved}, Muster's default before it,
 * by the name {@value #VOLCANO_NAME} ({@code volcano-scheduler.conf}), for users who want Volcano's
 * decisions.
 */
public final class DefaultSchedulerConfig {
    public static final String SOURCE = "default-scheduler.conf (built in)";
    public static final String VOLCANO_SOURCE = "Volcano's Helm default (built in)";
    /** How users name the built-in {@code volcano.conf} where a configuration file is expected. */
    public static final String VOLCANO_NAME = "builtin:volcano";

    private DefaultSchedulerConfig() {}

    public static String text() {
        return resource("default-scheduler.conf");
    }

    public static String volcanoText() {
        return resource("volcano-scheduler.conf");
    }

    private static String resource(String name) {
        try (InputStream stream = DefaultSchedulerConfig.class.getResourceAsStream(name)) {
            if (stream == null) {
                throw new IllegalStateException("BUG: " + name + " is missing from the classpath");
            }
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
