package dev.muster.embedded;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Identical simulated nodes: {@code count} nodes named {@code PREFIX-1}, {@code PREFIX-2}, ... with
 * the same allocatable resources and labels, written on the command line as
 * {@code [PREFIX:]COUNT:RESOURCES[:LABELS]}, e.g. {@code 8:cpu=32,memory=128Gi,nvidia.com/gpu=8},
 * {@code gpu:2:cpu=64,nvidia.com/gpu=8} or {@code gpu:2:cpu=64:zone=eu-west-1a,instance-type=p4d.24xlarge}.
 * A count first is a count, never a prefix (so {@code 2:cpu=4:zone=a} has no prefix).
 *
 * <p>The labels are added to those every node gets as a kubelet sets them ({@link SimulatedNodes}) and
 * win over them; {@code zone}, {@code region} and {@code instance-type} stand for the well-known
 * {@code topology.kubernetes.io/zone}, {@code topology.kubernetes.io/region} and
 * {@code node.kubernetes.io/instance-type}, which a cloud provider sets on a real cluster.
 */
public record NodePool(String prefix, int count, ImmutableMap<String, Quantity> allocatable, ImmutableMap<String, String> labels) {
    public static final String DEFAULT_PREFIX = "node";
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern COUNT = Pattern.compile("[0-9]+");
    private static final Quantity DEFAULT_PODS = new Quantity("110");
    private static final ImmutableMap<String, String> WELL_KNOWN = ImmutableMap.of(
            "zone", "topology.kubernetes.io/zone",
            "region", "topology.kubernetes.io/region",
            "instance-type", "node.kubernetes.io/instance-type");
    // labels.IsQualifiedName and IsValidLabelValue of apimachinery, in one expression each
    private static final Pattern LABEL_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    /** A pool without labels of its own. */
    public NodePool(String prefix, int count, ImmutableMap<String, Quantity> allocatable) {
        this(prefix, count, allocatable, ImmutableMap.of());
    }

    public NodePool {
        requireNonNull(prefix, "prefix is null");
        checkArgument(PREFIX.matcher(prefix).matches(), "node name prefix '%s' is not a lower-case DNS label", prefix);
        checkArgument(count > 0, "a node pool needs at least one node: %s", count);
        requireNonNull(allocatable, "allocatable is null");
        requireNonNull(labels, "labels is null");
        labels.forEach((key, value) -> {
            checkArgument(LABEL_KEY.matcher(key).matches(), "label key '%s' is not a qualified name, e.g. example.com/rack", key);
            checkArgument(LABEL_VALUE.matcher(value).matches(), "label %s: '%s' is not a valid label value", key, value);
        });
        checkArgument(!allocatable.isEmpty(), "a node pool needs resources, e.g. cpu=32,memory=128Gi");
        if (!allocatable.containsKey("pods")) {
            allocatable = ImmutableMap.<String, Quantity>builder().putAll(allocatable).put("pods", DEFAULT_PODS).buildOrThrow();
        }
    }

    /**
     * Reads {@code [PREFIX:]COUNT:RESOURCES[:LABELS]}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static NodePool parse(String text) {
        List<String> parts = Splitter.on(':').splitToList(text.trim());
        if (parts.size() < 2 || parts.size() > 4) {
            throw new IllegalArgumentException("'" + text + "' is not [PREFIX:]COUNT:RESOURCES[:LABELS], e.g. 8:cpu=32,memory=128Gi");
        }
        boolean prefixed = parts.size() == 4 || parts.size() == 3 && !COUNT.matcher(parts.get(0)).matches();
        String prefix = prefixed ? parts.get(0) : DEFAULT_PREFIX;
        int first = prefixed ? 1 : 0;
        if (parts.size() - first < 2) {
            throw new IllegalArgumentException("'" + text + "' is not [PREFIX:]COUNT:RESOURCES[:LABELS], e.g. 8:cpu=32,memory=128Gi");
        }
        String countText = parts.get(first);
        int count;
        try {
            count = Integer.parseInt(countText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': the node count '" + countText + "' is not a number", e);
        }
        Map<String, Quantity> resources = new LinkedHashMap<>();
        for (String pair : Splitter.on(',').split(parts.get(first + 1))) {
            List<String> nameAndValue = Splitter.on('=').limit(2).splitToList(pair);
            if (nameAndValue.size() != 2 || nameAndValue.get(0).isBlank() || nameAndValue.get(1).isBlank()) {
                throw new IllegalArgumentException("'" + text + "': '" + pair + "' is not RESOURCE=QUANTITY, e.g. memory=128Gi");
            }
            Quantity quantity = new Quantity(nameAndValue.get(1).trim());
            try {
                Quantity.getAmountInBytes(quantity);
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new IllegalArgumentException("'" + text + "': '" + nameAndValue.get(1) + "' is not a quantity", e);
            }
            resources.put(nameAndValue.get(0).trim(), quantity);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (parts.size() - first == 3) {
            for (String pair : Splitter.on(',').split(parts.get(first + 2))) {
                List<String> keyAndValue = Splitter.on('=').limit(2).splitToList(pair);
                if (keyAndValue.size() != 2 || keyAndValue.get(0).isBlank()) {
                    throw new IllegalArgumentException("'" + text + "': '" + pair + "' is not LABEL=VALUE, e.g. zone=eu-west-1a");
                }
                String key = keyAndValue.get(0).trim();
                labels.put(WELL_KNOWN.getOrDefault(key, key), keyAndValue.get(1).trim());
            }
        }
        try {
            return new NodePool(prefix, count, ImmutableMap.copyOf(resources), ImmutableMap.copyOf(labels));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "': " + e.getMessage(), e);
        }
    }

    /** The name of the pool's node number {@code index} (from 1): {@code PREFIX-index}. */
    String nodeName(int index) {
        return prefix + "-" + index;
    }
}
