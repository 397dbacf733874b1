package dev.muster.bridge.airflow.pods;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The Airflow side of the bridge as the jar carries it: {@code src/main/python/airflow_local_settings.py},
 * the pod_mutation_hook, for a program that sets up an Airflow ({@code muster up --peer airflow}).
 */
public final class LocalSettings {
    /** The name Airflow looks for, in {@code $AIRFLOW_HOME/config/} or on {@code PYTHONPATH}. */
    public static final String FILE_NAME = "airflow_local_settings.py";
    private static final String RESOURCE = "/dev/muster/bridge/airflow/python/" + FILE_NAME;

    private LocalSettings() {}

    /** The file's text. */
    public static String text() {
        try (InputStream in = LocalSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("BUG: " + RESOURCE + " is not on the class path");
            }
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
