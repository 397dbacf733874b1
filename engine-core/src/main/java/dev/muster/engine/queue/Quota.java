package dev.muster.engine.queue;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.Resources;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Quota arithmetic with the exact comparisons Volcano's queue plugins use. They differ from the
 * general-purpose ones on {@link Resources} in small but observable ways: some compare strictly,
 * without epsilon; some look only at the dimensions a request asks for; and a scalar that is absent
 * is not the same as a scalar that is 0 (an absent limit is no limit for {@link #minimum} with
 * {@link Resources.Missing#INFINITY}).
 */
public final class Quota {
    /** Volcano counts a quantity below this as nothing. */
    private static final double MIN_QUANTITY = Resources.EPSILON;
    /** A node's pod count; never part of a quota comparison. */
    private static final String PODS = "pods";

    private Quota() {}

    /**
     * What {@code left} has beyond {@code right}, per dimension; only the scalars where {@code left}
     * is strictly larger are kept (Volcano's {@code ExceededPart}).
     */
    public static Resources exceededPart(Resources left, Resources right) {
        TreeMap<String, Double> scalars = new TreeMap<>();
        left.scalars().forEach((name, value) -> {
            double other = right.get(name);
            if (value > other) {
                scalars.put(name, value - other);
            }
        });
        return new Resources(
                Math.max(left.milliCpu() - right.milliCpu(), 0),
                Math.max(left.memory() - right.memory(), 0),
                ImmutableSortedMap.copyOf(scalars));
    }

    /**
     * {@code used ≤ limit} on the dimensions {@code request} asks for, compared strictly (Volcano's
     * {@code LessEqualWithDimensionAndResourcesName}); a scalar absent from the limit counts as 0.
     */
    public static boolean fitsOnRequested(Resources used, Resources limit, Resources request) {
        return insufficientOnRequested(used, limit, request).isEmpty();
    }

    /** {@code cpu 6 > 4, memory 10Gi > 8Gi}: what would be used against the limit, on the given dimensions. */
    public static String describeExcess(java.util.Set<String> dimensions, Resources used, Resources limit) {
        StringBuilder text = new StringBuilder();
        for (String name : dimensions) {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(name).append(' ').append(used.format(name)).append(" > ").append(limit.format(name));
        }
        return text.toString();
    }

    /** The dimensions where {@link #fitsOnRequested} fails, sorted. */
    public static TreeSet<String> insufficientOnRequested(Resources used, Resources limit, Resources request) {
        TreeSet<String> names = new TreeSet<>();
        if (request.milliCpu() > 0 && used.milliCpu() > limit.milliCpu()) {
            names.add(Resources.CPU);
        }
        if (request.memory() > 0 && used.memory() > limit.memory()) {
            names.add(Resources.MEMORY);
        }
        request.scalars().forEach((name, quantity) -> {
            if (!name.equals(PODS) && quantity > 0 && used.get(name) > limit.get(name)) {
                names.add(name);
            }
        });
        return names;
    }

    /**
     * {@code used ≤ limit} (with epsilon) on at least one dimension the request asks for, ignoring the
     * dimensions that neither side uses (Volcano's {@code LessEqualPartlyWithDimensionZeroFiltered}).
     */
    public static boolean fitsPartlyOnUsedDimensions(Resources used, Resources limit, Resources request) {
        if (request.milliCpu() > 0 && !unused(used.milliCpu(), limit.milliCpu())
                && lessEqual(used.milliCpu(), limit.milliCpu())) {
            return true;
        }
        if (request.memory() > 0 && !unused(used.memory(), limit.memory())
                && lessEqual(used.memory(), limit.memory())) {
            return true;
        }
        for (Map.Entry<String, Double> entry : request.scalars().entrySet()) {
            String name = entry.getKey();
            if (name.equals(PODS) || entry.getValue() <= 0 || unused(used.get(name), limit.get(name))) {
                continue;
            }
            if (lessEqual(used.get(name), limit.get(name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code used > limit}, strictly, on a dimension the request asks for and the limit has: cpu and
     * memory only when the limit's quantity is not nothing, a scalar whenever the limit lists it, even
     * at 0 (Volcano's {@code GreaterPartlyWithRelevantDimensions}).
     */
    public static boolean exceedsOnRelevantDimensions(Resources used, Resources limit, Resources request) {
        if (request.milliCpu() > 0 && limit.milliCpu() >= MIN_QUANTITY && used.milliCpu() > limit.milliCpu()) {
            return true;
        }
        if (request.memory() > 0 && limit.memory() >= MIN_QUANTITY && used.memory() > limit.memory()) {
            return true;
        }
        for (Map.Entry<String, Double> entry : request.scalars().entrySet()) {
            String name = entry.getKey();
            if (!name.equals(PODS) && entry.getValue() > 0 && limit.has(name) && used.get(name) > limit.get(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether both ask for some resource (at least {@link Resources#EPSILON}), pods aside. */
    public static boolean intersects(Resources left, Resources right) {
        TreeSet<String> common = left.requestedNames();
        common.retainAll(right.requestedNames());
        common.remove(PODS);
        return !common.isEmpty();
    }

    /** The largest {@code allocated / deserved} over the dimensions deserved has (Volcano's queue share). */
    public static double share(Resources allocated, Resources deserved) {
        double result = 0;
        for (String name : deserved.requestedNames()) {
            result = Math.max(result, fraction(allocated.get(name), deserved.get(name)));
        }
        return result;
    }

    /** {@code left / right}, with 0/0 = 0 and x/0 = 1 (Volcano's {@code helpers.Share}). */
    public static double fraction(double left, double right) {
        if (right == 0) {
            return left == 0 ? 0 : 1;
        }
        return left / right;
    }

    /** Bit-for-bit equality of every quantity, as Volcano's {@code equality.Semantic.DeepEqual} on resources. */
    public static boolean identical(Resources left, Resources right) {
        if (left.milliCpu() != right.milliCpu() || left.memory() != right.memory()) {
            return false;
        }
        if (!left.scalars().keySet().equals(right.scalars().keySet())) {
            return false;
        }
        for (Map.Entry<String, Double> entry : left.scalars().entrySet()) {
            if (entry.getValue().doubleValue() != right.scalars().get(entry.getKey()).doubleValue()) {
                return false;
            }
        }
        return true;
    }

    /** True when every dimension but pods is below {@link Resources#EPSILON} (Volcano's {@code IsEmpty}). */
    public static boolean isEmpty(Resources resources) {
        TreeSet<String> names = resources.requestedNames();
        names.remove(PODS);
        return names.isEmpty();
    }

    private static boolean unused(double left, double right) {
        return left < MIN_QUANTITY && right < MIN_QUANTITY;
    }

    private static boolean lessEqual(double left, double right) {
        return left < right || Math.abs(left - right) < MIN_QUANTITY;
    }
}
