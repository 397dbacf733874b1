package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sum of pod requests, as a PodGroup's {@code minResources}: {@code cpu} in cores, {@code memory}
 * in MiB, every other resource (GPUs and other extended resources) as a whole count.
 */
final class ApplicationResources {
    private final Map<String, BigDecimal> amounts = new TreeMap<>();

    /**
     * Adds what a pod being built by Spark requests: its containers and Spark's main container (which
     * Spark puts into the pod only after the last step). A resource set only as a limit counts as
     * requested, as Kubernetes defaults a missing request to the limit.
     */
    ApplicationResources addPod(Pod pod, Container main) {
        List<Container> containers = new ArrayList<>();
        if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
            containers.addAll(pod.getSpec().getContainers());
        }
        if (main != null && containers.stream().noneMatch(container -> container == main)) {
            containers.add(main);
        }
        for (Container container : containers) {
            ResourceRequirements resources = container.getResources();
            if (resources == null) {
                continue;
            }
            Map<String, Quantity> effective = new TreeMap<>();
            if (resources.getLimits() != null) {
                effective.putAll(resources.getLimits());
            }
            if (resources.getRequests() != null) {
                effective.putAll(resources.getRequests());
            }
            effective.forEach((name, quantity) -> amounts.merge(name, Quantities.amount(quantity), BigDecimal::add));
        }
        return this;
    }

    ApplicationResources addExecutors(ExecutorResources executor, int count) {
        requireNonNull(executor, "executor is null");
        BigDecimal times = BigDecimal.valueOf(count);
        amounts.merge("cpu", executor.cpu().multiply(times), BigDecimal::add);
        amounts.merge("memory", BigDecimal.valueOf(executor.memoryMib()).multiply(BigDecimal.valueOf(1024L * 1024L)).multiply(times),
                BigDecimal::add);
        executor.extended().forEach((name, amount) -> amounts.merge(name, BigDecimal.valueOf(amount).multiply(times), BigDecimal::add));
        return this;
    }

    /** As {@code minResources}: names in sorted order; zero amounts left out. */
    Map<String, Quantity> toQuantities() {
        Map<String, Quantity> quantities = new TreeMap<>();
        amounts.forEach((name, amount) -> {
            if (amount.signum() == 0) {
                return;
            }
            switch (name) {
                case "cpu" -> quantities.put(name, Quantities.cores(amount));
                case "memory", "ephemeral-storage" -> quantities.put(name, Quantities.mebibytes(Quantities.toMebibytes(amount)));
                default -> quantities.put(name, new Quantity(amount.stripTrailingZeros().toPlainString()));
            }
        });
        return Collections.unmodifiableMap(quantities);
    }
}
