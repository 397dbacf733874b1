/** The {@code binpack} plugin: Volcano's weighted best-fit node score. */
package dev.muster.engine.plugins.binpack;
