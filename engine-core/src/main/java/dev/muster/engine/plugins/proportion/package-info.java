/** Weighted fair share between queues: Volcano's proportion plugin. */
package dev.muster.engine.plugins.proportion;
