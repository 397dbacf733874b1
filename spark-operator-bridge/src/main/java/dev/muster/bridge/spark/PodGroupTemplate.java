package dev.muster.bridge.spark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A PodGroup template file (Volcano's {@code podGroupTemplateFile}: a {@code scheduling.volcano.sh/v1beta1}
 * PodGroup, of which Spark keeps {@code metadata} and {@code spec}), read and checked when the step is
 * initialised.
 */
record PodGroupTemplate(Map<String, String> labels, Map<String, String> annotations, Map<String, Object> spec) {
    PodGroupTemplate {
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        annotations = Collections.unmodifiableMap(new TreeMap<>(annotations));
        spec = Collections.unmodifiableMap(new LinkedHashMap<>(spec));
    }

    static final PodGroupTemplate EMPTY = new PodGroupTemplate(Map.of(), Map.of(), Map.of());

    static PodGroupTemplate read(String key, Path file) {
        GenericKubernetesResource resource;
        try (InputStream in = Files.newInputStream(file)) {
            resource = new KubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new ConfProblem(key, "cannot read '" + file + "': " + e, e);
        } catch (RuntimeException e) {
            throw new ConfProblem(key, "'" + file + "' is not a PodGroup in YAML or JSON: " + e.getMessage(), e);
        }
        if (resource == null) {
            throw new ConfProblem(key, "'" + file + "' is empty");
        }
        if (resource.getKind() != null && !resource.getKind().equals("PodGroup")) {
            throw new ConfProblem(key, "'" + file + "' holds a " + resource.getKind() + ", not a PodGroup");
        }
        Object spec = resource.getAdditionalProperties().get("spec");
        if (spec != null && !(spec instanceof Map)) {
            throw new ConfProblem(key, "'" + file + "': spec is not an object");
        }
        Map<String, Object> specMap = new LinkedHashMap<>();
        if (spec != null) {
            ((Map<?, ?>) spec).forEach((name, value) -> specMap.put(String.valueOf(name), value));
        }
        Object minMember = specMap.get("minMember");
        if (minMember != null && !(minMember instanceof Integer)) {
            throw new ConfProblem(key, "'" + file + "': spec.minMember '" + minMember + "' is not a whole number");
        }
        for (String field : new String[] {"queue", "priorityClassName"}) {
            Object value = specMap.get(field);
            if (value != null && !(value instanceof String)) {
                throw new ConfProblem(key, "'" + file + "': spec." + field + " '" + value + "' is not a string");
            }
        }
        Object minResources = specMap.get("minResources");
        if (minResources != null && !(minResources instanceof Map)) {
            throw new ConfProblem(key, "'" + file + "': spec.minResources is not a map of resource names to quantities");
        }
        Map<String, String> labels = resource.getMetadata() == null || resource.getMetadata().getLabels() == null
                ? Map.of() : resource.getMetadata().getLabels();
        Map<String, String> annotations = resource.getMetadata() == null || resource.getMetadata().getAnnotations() == null
                ? Map.of() : resource.getMetadata().getAnnotations();
        return new PodGroupTemplate(labels, annotations, specMap);
    }

    Optional<Integer> minMember() {
        return Optional.ofNullable((Integer) spec.get("minMember"));
    }

    /** The template's {@code spec.minResources}, by resource name. */
    Map<String, Object> minResources() {
        Map<String, Object> resources = new TreeMap<>();
        Object value = spec.get("minResources");
        if (value instanceof Map<?, ?> map) {
            map.forEach((name, quantity) -> resources.put(String.valueOf(name), quantity));
        }
        return resources;
    }

    Optional<String> string(String field) {
        return Optional.ofNullable((String) spec.get(field));
    }
}
