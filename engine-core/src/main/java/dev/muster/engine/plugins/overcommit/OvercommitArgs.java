package dev.muster.engine.plugins.overcommit;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The overcommit plugin's arguments, with Volcano's name.
 *
 * @param factor how far admission may overcommit the cluster: jobs are admitted while their minimum
 *     resources fit {@code total × factor − used}. A factor below 1.0 is replaced by the default 1.2, as
 *     Volcano does; a factor that is not a positive finite number is a configuration error.
 */
public record OvercommitArgs(@JsonProperty("overcommit-factor") double factor) {
    public static final double DEFAULT_FACTOR = 1.2;
    public static final OvercommitArgs DEFAULTS = new OvercommitArgs(DEFAULT_FACTOR);

    public OvercommitArgs {
        checkArgument(Double.isFinite(factor) && factor > 0, "overcommit-factor must be a positive number, got %s", factor);
    }

    /** The factor in effect: below 1.0 means the default (Volcano's rule). */
    public double effectiveFactor() {
        return factor < 1.0 ? DEFAULT_FACTOR : factor;
    }
}
