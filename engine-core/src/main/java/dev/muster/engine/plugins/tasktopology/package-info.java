/**
 * The {@code task-topology} plugin: Volcano's role-aware placement. A job's PodGroup annotations say
 * which roles ({@code volcano.sh/task-spec}) belong together on a node and which apart; the plugin
 * groups the job's pending tasks into buckets by those rules, orders tasks bucket by bucket and scores
 * nodes so that a bucket lands on as few nodes as fit it.
 */
package dev.muster.engine.plugins.tasktopology;
