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
 * the same allocatable resources, written on the command line as {@code [PREFIX:]COUNT:RESOURCES},
 * e.g. {@code 8:cpu=32,memory=128Gi,nvidia.com/gpu=8} or {@code gpu:2:cpu=64,nvidia.com/gpu=8}.
 */
public record NodePool(String prefix, int count, ImmutableMap<String, Quantity> allocatable) {
    public static final String DEFAULT_PREFIX = "node";
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Quantity DEFAULT_PODS = new Quantity("110");

    public NodePool {
        requireNonNull(prefix, "prefix is null");
        checkArgument(PREFIX.matcher(prefix).matches(), "node name prefix '%s' is not a lower-case DNS label", prefix);
        checkArgument(count > 0, "a node pool needs at least one node: %s", count);
        requireNonNull(allocatable, "allocatable is null");
        checkArgument(!allocatable.isEmpty(), "a node pool needs resources, e.g. cpu=32,memory=128Gi");
        if (!allocatable.containsKey("pods")) {
            allocatable = ImmutableMap.<String, Quantity>builder().putAll(allocatable).put("pods", DEFAULT_PODS).buildOrThrow();
        }
    }

    /**
     * Reads {@code [PREFIX:]COUNT:RESOURCES}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static NodePool parse(String text) {
        List<String> parts = Splitter.on(':').splitToList(text.trim());
        if (parts.size() != 2 && parts.size() != 3) {
            throw new IllegalArgumentException("'" + text + "' is not [PREFIX:]COUNT:RESOURCES, e.g. 8:cpu=32,memory=128Gi");
        }
        String prefix = parts.size() == 3 ? parts.get(0) : DEFAULT_PREFIX;
        String countText = parts.get(parts.size() - 2);
        int count;
        try {
            count = Integer.parseInt(countText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': the node count '" + countText + "' is not a number", e);
        }
        Map<String, Quantity> resources = new LinkedHashMap<>();
        for (String pair : Splitter.on(',').split(parts.get(parts.size() - 1))) {
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
        try {
            return new NodePool(prefix, count, ImmutableMap.copyOf(resources));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "': " + e.getMessage(), e);
        }
    }

    /** The name of the pool's node number {@code index} (from 1): {@code PREFIX-index}. */
    String nodeName(int index) {
        return prefix + "-" + index;
    }
}
