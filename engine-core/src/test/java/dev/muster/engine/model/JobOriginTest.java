package dev.muster.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobOriginTest {
    private static final String REASON = "1/2 tasks of the gang fit: transform-1: 0/1 nodes are available: 1 Insufficient cpu";

    static Stream<Arguments> annotations() {
        return Stream.of(
                Arguments.of("a mapped Airflow task in its own words", Map.of(
                        OriginAnnotations.SYSTEM, "Airflow",
                        OriginAnnotations.WORKFLOW, "etl_daily",
                        OriginAnnotations.RUN, "scheduled__2026-12-04T00:00:00+00:00",
                        OriginAnnotations.STEP, "transform",
                        OriginAnnotations.STEP_INDEXES, "0-19",
                        OriginAnnotations.TERMS, "DAG, run, task"),
                        "Airflow DAG etl_daily, run scheduled__2026-12-04T00:00:00+00:00, task transform[0-19]"),
                Arguments.of("without terms the generic words", Map.of(
                        OriginAnnotations.WORKFLOW, "nightly", OriginAnnotations.RUN, "nightly-x7k2", OriginAnnotations.STEP, "train"),
                        "workflow nightly, run nightly-x7k2, step train"),
                Arguments.of("terms that are not three words are the generic ones", Map.of(
                        OriginAnnotations.SYSTEM, "Argo", OriginAnnotations.WORKFLOW, "nightly", OriginAnnotations.TERMS, "workflow,node"),
                        "Argo workflow nightly"),
                Arguments.of("blank values are absent", Map.of(
                        OriginAnnotations.SYSTEM, " ", OriginAnnotations.WORKFLOW, "", OriginAnnotations.STEP, "load",
                        OriginAnnotations.TERMS, "DAG,run,task"),
                        "task load"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("annotations")
    void describesTheOriginInItsSystemsWords(String description, Map<String, String> annotations, String expected) {
        assertThat(JobOrigin.of(annotations).map(JobOrigin::describe)).contains(expected);
    }

    @Test
    void theReasonComesFirstUnchangedAndTheOriginFollows() {
        JobOrigin origin = JobOrigin.of(Map.of(OriginAnnotations.SYSTEM, "Airflow", OriginAnnotations.WORKFLOW, "etl_daily",
                OriginAnnotations.RUN, "manual__1", OriginAnnotations.STEP, "transform", OriginAnnotations.STEP_INDEXES, "3",
                OriginAnnotations.TERMS, "DAG,run,task")).orElseThrow();

        assertThat(origin.explain(REASON)).isEqualTo(REASON + "; for Airflow DAG etl_daily, run manual__1, task transform[3]");
    }

    @Test
    void aPodGroupNamingNoWorkflowRunOrStepHasNoOrigin() {
        assertThat(JobOrigin.of(Map.of(OriginAnnotations.SYSTEM, "Airflow", OriginAnnotations.STEP_INDEXES, "3"))).isEmpty();
        assertThat(JobOrigin.of(Map.of())).isEqualTo(Optional.empty());
    }
}
