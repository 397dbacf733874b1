package dev.muster.engine.plugins.predicates;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The predicates plugin's switches, with Volcano's argument names. Node affinity (with nodeSelector),
 * taints and tolerations are checked by Muster; the other switches are accepted so an existing
 * Volcano configuration loads, but their filters (host ports, inter-pod affinity, volumes, topology
 * spread) are not implemented yet: see the plugin's Javadoc.
 */
public record PredicatesArgs(
        @JsonProperty("predicate.NodeAffinityEnable") boolean nodeAffinity,
        @JsonProperty("predicate.TaintTolerationEnable") boolean taintToleration,
        @JsonProperty("predicate.NodePortsEnable") boolean nodePorts,
        @JsonProperty("predicate.PodAffinityEnable") boolean podAffinity,
        @JsonProperty("predicate.NodeVolumeLimitsEnable") boolean nodeVolumeLimits,
        @JsonProperty("predicate.VolumeZoneEnable") boolean volumeZone,
        @JsonProperty("predicate.PodTopologySpreadEnable") boolean podTopologySpread,
        @JsonProperty("predicate.VolumeBindingEnable") boolean volumeBinding,
        @JsonProperty("predicate.DynamicResourceAllocationEnable") boolean dynamicResourceAllocation,
        @JsonProperty("predicate.CacheEnable") boolean cache) {
    public static final PredicatesArgs DEFAULTS = new PredicatesArgs(true, true, true, true, true, true, true, true, false, false);
}
