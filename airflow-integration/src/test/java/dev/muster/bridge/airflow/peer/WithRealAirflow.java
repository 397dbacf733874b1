package dev.muster.bridge.airflow.peer;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a real Airflow ({@code peers/install airflow}, or {@code airflow2}) standalone for the test class, with the DAG
 * files of the test resource folder {@link #dags()}. If the peer cannot be installed or started, every
 * test of the class fails with the reason; nothing is skipped.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealAirflowExtension.class)
public @interface WithRealAirflow {
    /** A folder of DAG files among the test resources. */
    String dags() default "airflow/dags";

    /** The peer: {@code airflow} (3.3.2, REST API v2) or {@code airflow2} (2.11.2, REST API v1). */
    String peer() default "airflow";
}
