/**
 * The scheduling framework: a {@link dev.muster.engine.framework.Session} over one snapshot,
 * {@link dev.muster.engine.framework.Statement}s that place gangs all or nothing, the plugin SPI
 * (one small interface per extension point) and the tier rules that combine plugins' answers.
 */
package dev.muster.engine.framework;
