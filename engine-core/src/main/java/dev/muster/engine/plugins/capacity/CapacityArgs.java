package dev.muster.engine.plugins.capacity;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The capacity plugin's arguments, with Volcano's name.
 *
 * @param ancestorReclaimLevel with {@code enableHierarchy}, how many levels of ancestors are consulted
 *     when a queue cannot reclaim on its own deserved share, and checked before taking a victim from a
 *     queue in another subtree; 0 (the default) consults none
 */
public record CapacityArgs(@JsonProperty("ancestorReclaimLevel") int ancestorReclaimLevel) {
    public static final CapacityArgs DEFAULTS = new CapacityArgs(0);

    public CapacityArgs {
        checkArgument(ancestorReclaimLevel >= 0, "ancestorReclaimLevel must not be negative, got %s", ancestorReclaimLevel);
    }
}
