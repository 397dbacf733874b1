/**
 * Muster's Spark feature step, {@link dev.muster.bridge.spark.MusterFeatureStep}, which runs inside
 * {@code spark-submit} and the Spark driver. It writes what Muster's scheduler reads, in Volcano's
 * vocabulary: one {@code scheduling.volcano.sh/v1beta1} PodGroup per application, named as Spark's own
 * {@code VolcanoFeatureStep} names it, with the {@code minResources} of the driver and the executors
 * Spark will start, and the group annotation on the driver and executor pods.
 *
 * <p>Everything here runs on Spark's class path, so it uses only what Spark ships: fabric8 7.x and
 * Spark's own configuration API. It must not reference Muster's engine or runtime classes, which
 * are not on that class path.
 */
package dev.muster.bridge.spark;
