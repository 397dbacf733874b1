package dev.muster.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class MergePatchDiffTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fieldsThatAreGoneBecomeNullsAtAnyDepth() throws IOException {
        JsonNode before = JSON.readTree("""
                {"state": {"phase": "Running", "reason": "x"}, "running": 2, "taskStatusCount": {"a": {"phase": {"Running": 2}}}}""");
        ObjectNode after = (ObjectNode) JSON.readTree("""
                {"state": {"phase": "Completed"}, "succeeded": 2, "taskStatusCount": {"a": {"phase": {"Succeeded": 2}}}}""");

        ObjectNode patch = MergePatchDiff.between(before, after);

        assertThat(patch).isEqualTo(JSON.readTree("""
                {"state": {"phase": "Completed", "reason": null}, "running": null, "succeeded": 2,
                 "taskStatusCount": {"a": {"phase": {"Running": null, "Succeeded": 2}}}}"""));
    }

    @Test
    void equalObjectsNeedNoPatchAndAnAbsentBeforeTakesEverything() throws IOException {
        ObjectNode status = (ObjectNode) JSON.readTree("""
                {"state": {"phase": "Pending"}, "conditions": [{"status": "Pending"}]}""");

        assertThat(MergePatchDiff.between(status.deepCopy(), status)).isEmpty();
        assertThat(MergePatchDiff.between(null, status)).isEqualTo(status);
    }
}
