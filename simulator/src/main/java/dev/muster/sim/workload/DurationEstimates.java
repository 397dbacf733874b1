package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.sim.SimulationException;
import java.time.Duration;
import java.util.Random;

/**
 * Where the run-time estimates behind a DAG's remaining critical path come from. A trace knows
 * how long each task ran; a scheduler in production does not, so:
 * <ul>
 *   <li>{@code oracle}: the estimate is the trace's duration, exactly. An upper bound on what
 *       critical-path ordering can gain, not a realistic setting;</li>
 *   <li>{@code lognormal:SIGMA}: the trace's duration times {@code exp(SIGMA * Z)}, {@code Z}
 *       standard normal, so the estimate's median is the true duration and its spread grows with
 *       SIGMA ({@code 1} puts two thirds of estimates between 0.37 and 2.7 times the truth, about
 *       the error of a per-task history of recurring jobs). {@code Z} is drawn from the seed, the job
 *       id and the gang name only, so every policy of a comparison sees the same estimates and the
 *       same seed gives the same estimates.</li>
 * </ul>
 *
 * @param sigma 0 for the oracle
 */
public record DurationEstimates(Kind kind, double sigma) {
    public static final DurationEstimates ORACLE = new DurationEstimates(Kind.ORACLE, 0);

    /** How an estimate relates to the trace's duration. */
    public enum Kind {
        ORACLE,
        LOGNORMAL
    }

    public DurationEstimates {
        requireNonNull(kind, "kind is null");
        checkArgument(Double.isFinite(sigma) && sigma >= 0, "sigma must be finite and not negative: %s", sigma);
        checkArgument(kind == Kind.LOGNORMAL || sigma == 0, "the oracle has no sigma: %s", sigma);
    }

    public static DurationEstimates lognormal(double sigma) {
        return new DurationEstimates(Kind.LOGNORMAL, sigma);
    }

    /** Reads {@code oracle} or {@code lognormal:SIGMA}. */
    public static DurationEstimates parse(String text) {
        requireNonNull(text, "text is null");
        if (text.equals("oracle")) {
            return ORACLE;
        }
        String prefix = "lognormal:";
        if (text.startsWith(prefix)) {
            String value = text.substring(prefix.length());
            try {
                double sigma = Double.parseDouble(value);
                if (Double.isFinite(sigma) && sigma >= 0) {
                    return lognormal(sigma);
                }
            } catch (NumberFormatException e) {
                // reported below with the accepted forms
            }
            throw new SimulationException("duration estimates '" + text + "': sigma '" + value + "' is not a non-negative number");
        }
        throw new SimulationException("unknown duration estimates '" + text + "': use oracle or lognormal:SIGMA (e.g. lognormal:1)");
    }

    /** The estimated run time of one gang of a job, at least one millisecond. */
    public Duration estimate(String job, GangSpec gang, long seed) {
        requireNonNull(job, "job is null");
        requireNonNull(gang, "gang is null");
        return switch (kind) {
            case ORACLE -> Duration.ofMillis(gang.durationMillis());
            case LOGNORMAL -> {
                double noise = Math.exp(sigma * new Random(mix(seed, job, gang.name())).nextGaussian());
                yield Duration.ofMillis(Math.max(1, Math.round(gang.durationMillis() * noise)));
            }
        };
    }

    /** A per-gang seed: String.hashCode is specified, so this is the same on every JVM. */
    private static long mix(long seed, String job, String gang) {
        long hash = seed * 0x9E3779B97F4A7C15L + job.hashCode();
        return hash * 0x9E3779B97F4A7C15L + gang.hashCode();
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ORACLE -> "oracle";
            case LOGNORMAL -> "lognormal:" + sigma;
        };
    }
}
