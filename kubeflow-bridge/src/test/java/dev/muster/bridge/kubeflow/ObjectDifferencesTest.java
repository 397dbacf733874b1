package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.ObjectDifferences.Accepted.added;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectDifferencesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aValueThatDiffersIsNamedByItsPath() throws Exception {
        JsonNode planned = JSON.readTree("{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"RANK\",\"value\":\"1\"}]}]}}");
        JsonNode made = JSON.readTree("{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"RANK\",\"value\":\"2\"}]}]}}");

        assertThat(ObjectDifferences.unaccepted(planned, made, List.of())).extracting(Object::toString)
                .containsExactly("spec.containers[0].env[0].value: Muster \"1\", operator \"2\"");
    }

    @Test
    void aFieldOnlyTheServerAddsIsAcceptedWhenARuleSaysSoAndOnlyThen() throws Exception {
        JsonNode planned = JSON.readTree("{\"spec\":{\"restartPolicy\":\"Never\"}}");
        JsonNode made = JSON.readTree("{\"spec\":{\"restartPolicy\":\"Never\",\"dnsPolicy\":\"ClusterFirst\"}}");

        assertThat(ObjectDifferences.unaccepted(planned, made, List.of(added("spec\\.dnsPolicy", "default")))).isEmpty();
        assertThat(ObjectDifferences.unaccepted(planned, made, List.of())).extracting(Object::toString)
                .containsExactly("spec.dnsPolicy: Muster (absent), operator \"ClusterFirst\"");
    }

    @Test
    void aRuleNeverAcceptsAnotherValueOrAFieldOnlyMusterPlans() throws Exception {
        JsonNode planned = JSON.readTree("{\"spec\":{\"dnsPolicy\":\"Default\",\"schedulerName\":\"muster\"}}");
        JsonNode made = JSON.readTree("{\"spec\":{\"dnsPolicy\":\"ClusterFirst\"}}");

        assertThat(ObjectDifferences.unaccepted(planned, made, List.of(added("spec\\..*", "anything"))))
                .extracting(ObjectDifferences.Difference::path).containsExactly("spec.dnsPolicy", "spec.schedulerName");
    }

    @Test
    void statusAndEmptyFieldsAreNotCompared() throws Exception {
        JsonNode planned = JSON.readTree("{\"metadata\":{\"annotations\":{}},\"spec\":{\"env\":[]}}");
        JsonNode made = JSON.readTree("{\"metadata\":{},\"status\":{\"phase\":\"Running\"},\"spec\":{\"env\":null}}");

        assertThat(ObjectDifferences.unaccepted(planned, made, List.of())).isEmpty();
    }
}
