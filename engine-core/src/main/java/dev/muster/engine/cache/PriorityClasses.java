package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The PriorityClasses of the manifests ({@code scheduling.k8s.io/v1}): values by name, and the one
 * marked {@code globalDefault}.
 */
record PriorityClasses(ImmutableMap<String, Integer> values, Optional<String> globalDefault) {
    PriorityClasses {
        values = ImmutableMap.copyOf(values);
        requireNonNull(globalDefault, "globalDefault is null");
    }

    /**
     * A job's priority as Volcano's cache computes it: the value of its class; with no class, the value
     * of the global default class; 0 when the class is unknown or there is no default.
     */
    int jobPriority(String className) {
        if (className.isEmpty()) {
            return globalDefault.map(values::get).orElse(0);
        }
        return values.getOrDefault(className, 0);
    }

    static PriorityClasses read(List<ManifestObject> objects, Problems problems) {
        Map<String, Integer> values = new LinkedHashMap<>();
        Optional<String> globalDefault = Optional.empty();
        for (ManifestObject object : objects) {
            FieldReader reader = new FieldReader(object, problems);
            Optional<Integer> value = reader.integer("value");
            boolean isDefault = reader.bool("globalDefault").orElse(false);
            if (value.isEmpty()) {
                if (!reader.hasErrors()) {
                    reader.error("value", "is missing");
                }
                continue;
            }
            if (reader.hasErrors()) {
                continue;
            }
            values.put(object.name(), value.get());
            if (isDefault) {
                if (globalDefault.isEmpty()) {
                    globalDefault = Optional.of(object.name());
                } else {
                    reader.warning("globalDefault", "PriorityClass " + globalDefault.get()
                            + " is already the global default; this one is not");
                }
            }
        }
        return new PriorityClasses(ImmutableMap.copyOf(values), globalDefault);
    }
}
