/**
 * The {@code resource-strategy-fit} plugin: per-resource least- or most-allocated scoring with
 * wildcards and pod overrides, scarce resource avoidance, and the proportional predicate.
 */
package dev.muster.engine.plugins.resourcestrategyfit;
