package dev.muster.bridge.spark;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Muster's own Spark confs, under {@value #PREFIX}, as Spark names each scheduler's
 * ({@code spark.kubernetes.scheduler.volcano.*}), read once when the step is initialised.
 *
 * @param queue the PodGroup's Volcano Queue ({@value #QUEUE})
 * @param priorityClassName the PodGroup's {@code priorityClassName} ({@value #PRIORITY_CLASS})
 * @param template the PodGroup template file ({@value #TEMPLATE}, else Volcano's {@value #VOLCANO_TEMPLATE})
 * @param templateKey the key {@code template} came from
 */
record MusterConf(Optional<String> queue, Optional<String> priorityClassName, Optional<Path> template, String templateKey) {
    static final String PREFIX = "spark.kubernetes.scheduler.muster.";
    static final String QUEUE = PREFIX + "queue";
    static final String PRIORITY_CLASS = PREFIX + "priorityClassName";
    static final String TEMPLATE = PREFIX + "podGroupTemplateFile";
    /** Spark's {@code VolcanoFeatureStep.POD_GROUP_TEMPLATE_FILE_KEY}, honoured so Volcano users' confs keep working. */
    static final String VOLCANO_TEMPLATE = "spark.kubernetes.scheduler.volcano.podGroupTemplateFile";

    static MusterConf read(SparkConfReader conf) {
        Optional<String> queue = name(conf, QUEUE);
        Optional<String> priorityClass = name(conf, PRIORITY_CLASS);
        String templateKey = conf.contains(TEMPLATE) ? TEMPLATE : VOLCANO_TEMPLATE;
        Optional<Path> template = conf.string(templateKey).map(Path::of);
        return new MusterConf(queue, priorityClass, template, templateKey);
    }

    /** A Kubernetes object name (RFC 1123 subdomain), as Queue and PriorityClass names are. */
    private static Optional<String> name(SparkConfReader conf, String key) {
        Optional<String> value = conf.string(key);
        if (value.isPresent() && !value.get().matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            throw new ConfProblem(key, "'" + value.get() + "' is not a Kubernetes object name (lower case letters, digits, '-' and '.')");
        }
        return value;
    }
}
