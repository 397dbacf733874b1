package dev.muster.engine.plugins.nodeorder;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The nodeorder plugin's weights, with Volcano's argument names and defaults. A weight of 0 turns
 * its score off; a negative weight is honoured, as in Volcano, and turns a preference into an
 * aversion. {@code podaffinity}, {@code imagelocality} and {@code podtopologyspread} are accepted so
 * an existing configuration loads, but their scores are not implemented (the model has no pod
 * affinity terms, image sizes or spread constraints yet): see {@link NodeOrderPlugin}.
 */
public record NodeOrderArgs(
        @JsonProperty("leastrequested.weight") int leastRequested,
        @JsonProperty("mostrequested.weight") int mostRequested,
        @JsonProperty("balancedresource.weight") int balancedResource,
        @JsonProperty("nodeaffinity.weight") int nodeAffinity,
        @JsonProperty("podaffinity.weight") int podAffinity,
        @JsonProperty("tainttoleration.weight") int taintToleration,
        @JsonProperty("imagelocality.weight") int imageLocality,
        @JsonProperty("podtopologyspread.weight") int podTopologySpread) {
    public static final NodeOrderArgs DEFAULTS = new NodeOrderArgs(1, 0, 1, 2, 2, 3, 1, 2);
}
