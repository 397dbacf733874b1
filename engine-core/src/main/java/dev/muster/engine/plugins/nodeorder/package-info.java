/**
 * The {@code nodeorder} plugin: kube-scheduler's node scores (least and most allocated, balanced
 * allocation, node affinity, taint toleration) with Volcano's weights.
 */
package dev.muster.engine.plugins.nodeorder;
