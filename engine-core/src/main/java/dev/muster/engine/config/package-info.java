/**
 * The scheduler configuration in Volcano's {@code volcano-scheduler.conf} format, loaded strictly:
 * actions in order, tiers of plugins with their switches and typed arguments.
 */
package dev.muster.engine.config;
