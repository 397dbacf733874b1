package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A pod's QoS class is computed as kube-apiserver's {@code qos.GetPodQOS} computes it. */
class PodDefaultsTest {
    static Stream<Arguments> pods() {
        return Stream.of(
                Arguments.of("no requests or limits", "{}", "BestEffort"),
                Arguments.of("limits alone, which requests default to", "{\"limits\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}}", "Guaranteed"),
                Arguments.of("requests equal to limits in other units",
                        "{\"requests\": {\"cpu\": \"1000m\", \"memory\": \"1024Mi\"}, \"limits\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}}",
                        "Guaranteed"),
                Arguments.of("requests below limits", "{\"requests\": {\"cpu\": \"500m\"}, \"limits\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}}",
                        "Burstable"),
                Arguments.of("a cpu limit without a memory limit", "{\"limits\": {\"cpu\": \"1\"}}", "Burstable"),
                Arguments.of("requests alone", "{\"requests\": {\"memory\": \"2Gi\"}}", "Burstable"),
                Arguments.of("only resources QoS ignores", "{\"requests\": {\"nvidia.com/gpu\": \"1\"}}", "BestEffort"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pods")
    void qosClass(String description, String resources, String qosClass) throws Exception {
        String spec = "{\"containers\": [{\"name\": \"main\", \"resources\": " + resources + "}]}";

        assertThat(PodDefaults.qosClass(new ObjectMapper().readTree(spec))).isEqualTo(qosClass);
    }
}
