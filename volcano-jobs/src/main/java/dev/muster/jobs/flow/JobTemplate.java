package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.jobs.JobMetadata;
import dev.muster.jobs.VolcanoJobSpec;

/**
 * A {@code flow.volcano.sh/v1alpha1} JobTemplate: a Job spec with a name.
 *
 * @param specJson the spec as written, copied verbatim into the Jobs made from the template (as Volcano does)
 */
public record JobTemplate(JobMetadata metadata, VolcanoJobSpec spec, ObjectNode specJson) {
    public static final String API_VERSION = "flow.volcano.sh/v1alpha1";
    public static final String KIND = "JobTemplate";

    public JobTemplate {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(spec, "spec is null");
        specJson = requireNonNull(specJson, "specJson is null").deepCopy();
    }

    @Override
    public ObjectNode specJson() {
        return specJson.deepCopy();
    }

    public String name() {
        return metadata.name();
    }
}
