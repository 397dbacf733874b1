/** Queues with explicit deserved quotas, flat or as a tree: Volcano's capacity plugin. */
package dev.muster.engine.plugins.capacity;
