package dev.muster.bridge.argo;

import dev.muster.engine.model.Resources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/** Pods' resource requests in the scheduler's units, and their text in messages. */
final class Requests {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private Requests() {}

    /** The sum of the requests of the pod's containers (what the scheduler counts for a running pod, init containers aside). */
    static Resources of(Pod pod) {
        Resources total = Resources.EMPTY;
        for (Container container : pod.getSpec().getContainers()) {
            if (container.getResources() == null || container.getResources().getRequests() == null) {
                continue;
            }
            Map<String, Double> quantities = new TreeMap<>();
            for (Map.Entry<String, Quantity> entry : container.getResources().getRequests().entrySet()) {
                String name = entry.getKey();
                if (name.equals("pods") || name.equals("ephemeral-storage")) {
                    continue;
                }
                BigDecimal amount = entry.getValue().getNumericalAmount();
                quantities.put(name, amount.multiply(name.equals(Resources.MEMORY) ? BigDecimal.ONE : THOUSAND)
                        .setScale(0, RoundingMode.CEILING).doubleValue());
            }
            total = total.add(Resources.of(quantities));
        }
        return total;
    }

    /** {@code cpu 9, memory 12Gi}: the dimensions asked for, in Kubernetes units; {@code nothing} when none is. */
    static String describe(Resources resources) {
        StringBuilder text = new StringBuilder();
        for (String name : resources.names()) {
            if (resources.get(name) > Resources.EPSILON) {
                text.append(text.length() == 0 ? "" : ", ").append(name).append(' ').append(resources.format(name));
            }
        }
        return text.length() == 0 ? "nothing" : text.toString();
    }
}
