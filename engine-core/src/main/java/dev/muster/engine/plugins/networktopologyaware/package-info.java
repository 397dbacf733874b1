/**
 * The {@code network-topology-aware} plugin: hypernode gradients for jobs and subgroups with a hard
 * topology, hypernode binpack scores, and node scores that keep a job's tasks close together.
 */
package dev.muster.engine.plugins.networktopologyaware;
