/**
 * The {@code executorreservation} plugin: holds the room of a Spark application's expected executors
 * once its driver is bound, and places its first executors together.
 */
package dev.muster.engine.plugins.executorreservation;
