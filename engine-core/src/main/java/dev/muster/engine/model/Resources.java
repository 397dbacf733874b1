package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleBinaryOperator;

/**
 * A bundle of named resource quantities, as the scheduler counts them: cpu in millicores, memory in
 * bytes, and every other (scalar) resource such as {@code nvidia.com/gpu} in milli-units, the units
 * Volcano uses. The node's pod count is not a resource here (see {@link ClusterNode#maxPods()}).
 *
 * <p>Comparisons treat two quantities within {@link #EPSILON} as equal, as Volcano does, so float
 * arithmetic from shares and water-filling never flips a decision.
 */
public record Resources(double milliCpu, double memory, ImmutableSortedMap<String, Double> scalars) {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String GPU = "nvidia.com/gpu";
    /** Quantities closer than this are equal: a tenth of a millicore, a tenth of a byte. */
    public static final double EPSILON = 0.1;

    public static final Resources EMPTY = new Resources(0, 0, ImmutableSortedMap.of());

    /** What a dimension missing on the right of a comparison counts as. */
    public enum Missing {
        ZERO,
        INFINITY
    }

    public Resources {
        requireNonNull(scalars, "scalars is null");
        checkArgument(!Double.isNaN(milliCpu) && !Double.isNaN(memory), "NaN quantity");
        scalars = ImmutableSortedMap.copyOf(scalars);
    }

    public static Resources of(double milliCpu, double memory) {
        return new Resources(milliCpu, memory, ImmutableSortedMap.of());
    }

    /** Builds from quantities keyed by resource name, already in the scheduler's units. */
    public static Resources of(Map<String, Double> quantities) {
        double cpu = 0;
        double memory = 0;
        TreeMap<String, Double> scalars = new TreeMap<>();
        for (Map.Entry<String, Double> entry : quantities.entrySet()) {
            switch (entry.getKey()) {
                case CPU -> cpu = entry.getValue();
                case MEMORY -> memory = entry.getValue();
                default -> scalars.put(entry.getKey(), entry.getValue());
            }
        }
        return new Resources(cpu, memory, ImmutableSortedMap.copyOf(scalars));
    }

    public Resources withScalar(String name, double value) {
        TreeMap<String, Double> copy = new TreeMap<>(scalars);
        copy.put(name, value);
        return new Resources(milliCpu, memory, ImmutableSortedMap.copyOf(copy));
    }

    /** The quantity of one resource, 0 when absent. */
    public double get(String name) {
        return switch (name) {
            case CPU -> milliCpu;
            case MEMORY -> memory;
            default -> scalars.getOrDefault(name, 0.0);
        };
    }

    public boolean has(String name) {
        return switch (name) {
            case CPU, MEMORY -> true;
            default -> scalars.containsKey(name);
        };
    }

    /** cpu, memory and every scalar name, sorted after cpu and memory. */
    public TreeSet<String> names() {
        TreeSet<String> names = new TreeSet<>(scalars.keySet());
        names.add(CPU);
        names.add(MEMORY);
        return names;
    }

    /** The names with a quantity above {@link #EPSILON}. */
    public TreeSet<String> requestedNames() {
        TreeSet<String> names = new TreeSet<>();
        if (milliCpu >= EPSILON) {
            names.add(CPU);
        }
        if (memory >= EPSILON) {
            names.add(MEMORY);
        }
        scalars.forEach((name, value) -> {
            if (value >= EPSILON) {
                names.add(name);
            }
        });
        return names;
    }

    public Resources add(Resources other) {
        if (scalars.isEmpty() && other.scalars.isEmpty()) {
            // cpu and memory only, the common case, without the operator call that combine makes
            // megamorphic: the cycle's node and queue accounting adds and subtracts for every task
            return new Resources(milliCpu + other.milliCpu, memory + other.memory, scalars);
        }
        return combine(other, Double::sum, 0);
    }

    /** Subtracts without a floor; callers that need one use {@link #subtractFloored}. */
    public Resources subtract(Resources other) {
        if (scalars.isEmpty() && other.scalars.isEmpty()) {
            return new Resources(milliCpu - other.milliCpu, memory - other.memory, scalars);
        }
        return combine(other, (l, r) -> l - r, 0);
    }

    public Resources subtractFloored(Resources other) {
        return combine(other, (l, r) -> Math.max(l - r, 0), 0);
    }

    public Resources multiply(double factor) {
        TreeMap<String, Double> copy = new TreeMap<>();
        scalars.forEach((name, value) -> copy.put(name, value * factor));
        return new Resources(milliCpu * factor, memory * factor, ImmutableSortedMap.copyOf(copy));
    }

    /** Per dimension the larger of the two; a dimension on one side only is kept. */
    public Resources max(Resources other) {
        return combine(other, Math::max, 0);
    }

    /**
     * Per dimension the smaller of the two. A scalar missing on the right counts as {@code missing}:
     * with {@link Missing#INFINITY} the left quantity is kept, with {@link Missing#ZERO} it becomes 0.
     */
    public Resources min(Resources other, Missing missing) {
        TreeMap<String, Double> copy = new TreeMap<>();
        scalars.forEach((name, value) -> {
            Double right = other.scalars.get(name);
            if (right == null) {
                copy.put(name, missing == Missing.INFINITY ? value : 0.0);
            } else {
                copy.put(name, Math.min(value, right));
            }
        });
        return new Resources(
                Math.min(milliCpu, other.milliCpu),
                Math.min(memory, other.memory),
                ImmutableSortedMap.copyOf(copy));
    }

    /** max(this - other, 0) per dimension of this. */
    public Resources exceededPart(Resources other) {
        TreeMap<String, Double> copy = new TreeMap<>();
        scalars.forEach((name, value) -> copy.put(name, Math.max(value - other.get(name), 0)));
        return new Resources(
                Math.max(milliCpu - other.milliCpu, 0),
                Math.max(memory - other.memory, 0),
                ImmutableSortedMap.copyOf(copy));
    }

    /** True when every dimension is below {@link #EPSILON}: a best-effort request. */
    public boolean isEmpty() {
        if (milliCpu >= EPSILON || memory >= EPSILON) {
            return false;
        }
        for (double value : scalars.values()) {
            if (value >= EPSILON) {
                return false;
            }
        }
        return true;
    }

    private static boolean lessEqual(double left, double right) {
        return left < right || Math.abs(left - right) < EPSILON;
    }

    /**
     * {@code this ≤ other} in every dimension of this. A scalar of this missing on the right counts as
     * {@code missing}.
     */
    public boolean lessEqual(Resources other, Missing missing) {
        if (!lessEqual(milliCpu, other.milliCpu) || !lessEqual(memory, other.memory)) {
            return false;
        }
        for (Map.Entry<String, Double> entry : scalars.entrySet()) {
            if (entry.getValue() < EPSILON) {
                continue;
            }
            Double right = other.scalars.get(entry.getKey());
            if (right == null) {
                if (missing == Missing.ZERO) {
                    return false;
                }
                continue;
            }
            if (!lessEqual(entry.getValue(), right)) {
                return false;
            }
        }
        return true;
    }

    /** The names of the dimensions where {@code this ≤ other} fails (Zero default), sorted. */
    public TreeSet<String> insufficientAgainst(Resources other) {
        TreeSet<String> names = new TreeSet<>();
        if (!lessEqual(milliCpu, other.milliCpu)) {
            names.add(CPU);
        }
        if (!lessEqual(memory, other.memory)) {
            names.add(MEMORY);
        }
        scalars.forEach((name, value) -> {
            if (value >= EPSILON && !lessEqual(value, other.get(name))) {
                names.add(name);
            }
        });
        return names;
    }

    /**
     * {@code this ≤ other} checked only on the dimensions that {@code request} asks for (above epsilon);
     * a scalar missing on the right counts as 0.
     */
    public boolean lessEqualOnDimensionsOf(Resources other, Resources request) {
        if (request.milliCpu >= EPSILON && !lessEqual(milliCpu, other.milliCpu)) {
            return false;
        }
        if (request.memory >= EPSILON && !lessEqual(memory, other.memory)) {
            return false;
        }
        for (Map.Entry<String, Double> entry : request.scalars.entrySet()) {
            if (entry.getValue() < EPSILON) {
                continue;
            }
            if (!lessEqual(get(entry.getKey()), other.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Strictly less in every dimension of either side (missing counts as 0). */
    public boolean lessThan(Resources other) {
        for (String name : union(other)) {
            double left = get(name);
            double right = other.get(name);
            if (!(left < right) || Math.abs(left - right) < EPSILON) {
                return false;
            }
        }
        return true;
    }

    /** At least one dimension of either side where this is strictly less. */
    public boolean lessPartly(Resources other) {
        for (String name : union(other)) {
            double left = get(name);
            double right = other.get(name);
            if (left < right && Math.abs(left - right) >= EPSILON) {
                return true;
            }
        }
        return false;
    }

    public TreeSet<String> union(Resources other) {
        TreeSet<String> names = names();
        names.addAll(other.scalars.keySet());
        return names;
    }

    private Resources combine(Resources other, DoubleBinaryOperator operator, double missing) {
        if (scalars.isEmpty() && other.scalars.isEmpty()) {
            return new Resources(operator.applyAsDouble(milliCpu, other.milliCpu), operator.applyAsDouble(memory, other.memory), scalars);
        }
        if (scalars.size() == 1 && other.scalars.size() == 1 && scalars.firstKey().equals(other.scalars.firstKey())) {
            // The common case in GPU clusters (one scalar, nvidia.com/gpu, on both sides): no sorted copy.
            String name = scalars.firstKey();
            return new Resources(
                    operator.applyAsDouble(milliCpu, other.milliCpu),
                    operator.applyAsDouble(memory, other.memory),
                    ImmutableSortedMap.of(name, operator.applyAsDouble(scalars.get(name), other.scalars.get(name))));
        }
        TreeMap<String, Double> copy = new TreeMap<>();
        for (String name : scalars.keySet()) {
            copy.put(name, operator.applyAsDouble(scalars.get(name), other.scalars.getOrDefault(name, missing)));
        }
        for (Map.Entry<String, Double> entry : other.scalars.entrySet()) {
            if (!copy.containsKey(entry.getKey())) {
                copy.put(entry.getKey(), operator.applyAsDouble(missing, entry.getValue()));
            }
        }
        return new Resources(
                operator.applyAsDouble(milliCpu, other.milliCpu),
                operator.applyAsDouble(memory, other.memory),
                ImmutableSortedMap.copyOf(copy));
    }

    /** One dimension in Kubernetes units: {@code 1500m} for cpu, {@code 2Gi} for memory, {@code 2} for a GPU. */
    public String format(String name) {
        return name.equals(MEMORY) ? Quantities.formatBytes(memory) : Quantities.formatMilli(get(name));
    }

    /** Kubernetes-style text: {@code cpu 1500m, memory 2Gi, nvidia.com/gpu 2}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        text.append("cpu ").append(Quantities.formatMilli(milliCpu));
        text.append(", memory ").append(Quantities.formatBytes(memory));
        scalars.forEach((name, value) -> text.append(", ").append(name).append(' ').append(Quantities.formatMilli(value)));
        return text.toString();
    }
}
