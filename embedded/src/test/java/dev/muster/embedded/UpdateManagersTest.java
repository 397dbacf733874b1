package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UpdateManagersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UpdateManagers.Writer KUBELET = new UpdateManagers.Writer("kubelet", "status", "2026-01-01T00:00:00Z");

    static Stream<Arguments> managers() {
        return Stream.of(
                Arguments.of("the fieldManager parameter wins", "muster", "kubectl/v1.34.4 (linux/amd64)", "muster"),
                Arguments.of("else the User-Agent up to its first slash", "", "kubectl/v1.34.4 (linux/amd64) kubernetes/abc", "kubectl"),
                Arguments.of("a User-Agent without a slash whole", "", "Go-http-client", "Go-http-client"),
                Arguments.of("unprintable characters dropped", "", "ku\tbe\u0007let/v1", "kubelet"),
                Arguments.of("at most 128 bytes", "", "a".repeat(200) + "/1", "a".repeat(128)),
                Arguments.of("no User-Agent, no name", "", "", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("managers")
    void namesTheManagerAsKubeApiServerDoes(String description, String fieldManager, String userAgent, String expected) {
        assertThat(UpdateManagers.manager(fieldManager, userAgent)).isEqualTo(expected);
    }

    @Test
    void aStatusWriteTakesTheChangedFieldFromItsOwnerAndKeepsTheOthers() throws Exception {
        // given: the scheduler owns one condition's status and the phase
        JsonNode before = JSON.readTree("""
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "managedFields": [
                  {"manager": "scheduler", "operation": "Update", "apiVersion": "v1", "time": "2025-01-01T00:00:00Z",
                   "fieldsType": "FieldsV1", "subresource": "status", "fieldsV1": {"f:status": {"f:phase": {}, "f:ready": {}}}}]},
                 "status": {"phase": "Pending", "ready": "false"}}""");
        ObjectNode after = (ObjectNode) before.deepCopy();
        ((ObjectNode) after.path("status")).put("phase", "Running");

        // when
        UpdateManagers.record(before, after, FieldSchema.UNKNOWN, KUBELET, true, false);

        // then
        assertThat(after.path("metadata").path("managedFields").toString()).isEqualTo("""
                [{"manager":"scheduler","operation":"Update","apiVersion":"v1","time":"2025-01-01T00:00:00Z","fieldsType":"FieldsV1",\
                "subresource":"status","fieldsV1":{"f:status":{"f:ready":{}}}},\
                {"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1",\
                "fieldsV1":{"f:status":{"f:phase":{}}},"subresource":"status"}]""");
    }

    @Test
    void anUpdateThatChangesNothingLeavesTheManagedFieldsAlone() throws Exception {
        JsonNode before = JSON.readTree("""
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "managedFields": [
                  {"manager": "a", "operation": "Update", "apiVersion": "v1", "time": "2025-01-01T00:00:00Z",
                   "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:k": {}}}}]}, "data": {"k": "v"}}""");
        ObjectNode after = (ObjectNode) before.deepCopy();

        UpdateManagers.record(before, after, FieldSchema.UNKNOWN, new UpdateManagers.Writer("b", "", "2026-01-01T00:00:00Z"), true, false);

        assertThat(after.path("metadata").path("managedFields")).isEqualTo(before.path("metadata").path("managedFields"));
    }

    @Test
    void anObjectWithoutManagedFieldsIsNotTrackedByAnUpdate() throws Exception {
        JsonNode before = JSON.readTree("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"x\"}, \"data\": {}}");
        ObjectNode after = (ObjectNode) JSON.readTree("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"x\"}, \"data\": {\"k\": \"v\"}}");

        UpdateManagers.record(before, after, FieldSchema.UNKNOWN, new UpdateManagers.Writer("b", "", "2026-01-01T00:00:00Z"), true, false);

        assertThat(after.path("metadata").has("managedFields")).isFalse();
    }
}
