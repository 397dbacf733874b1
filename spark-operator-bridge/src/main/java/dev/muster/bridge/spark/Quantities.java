package dev.muster.bridge.spark;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/** Kubernetes quantities read from confs and written into {@code minResources}. */
final class Quantities {
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

    private Quantities() {}

    /** A cpu amount such as {@code 500m} or {@code 1.5}, in cores. */
    static BigDecimal cpu(String key, String value) {
        BigDecimal cores;
        try {
            cores = Quantity.getAmountInBytes(new Quantity(value));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ConfProblem(key, "'" + value + "' is not a cpu quantity (such as 500m or 2)", e);
        }
        if (cores.signum() <= 0) {
            throw new ConfProblem(key, "'" + value + "' is not more than 0 cores");
        }
        return cores;
    }

    /** Cores as Kubernetes writes them: whole cores plain, fractions in millicores. */
    static Quantity cores(BigDecimal cores) {
        BigDecimal stripped = cores.stripTrailingZeros();
        if (stripped.scale() <= 0) {
            return new Quantity(stripped.toBigInteger().toString());
        }
        return new Quantity(cores.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).toBigInteger() + "m");
    }

    static Quantity mebibytes(long mib) {
        return new Quantity(mib + "Mi");
    }

    /** The amount of {@code quantity} in its base unit (cores, bytes, devices). */
    static BigDecimal amount(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }

    static long toMebibytes(BigDecimal bytes) {
        return bytes.divide(MIB, 0, java.math.RoundingMode.CEILING).longValueExact();
    }
}
