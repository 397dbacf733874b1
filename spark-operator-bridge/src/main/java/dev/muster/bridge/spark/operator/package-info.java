/**
 * SparkApplications ({@code sparkoperator.k8s.io/v1beta2}) run by the Kubeflow spark-operator with
 * {@code --enable-batch-scheduler}, completed for Muster (issue 12, item 3): the operator makes one
 * PodGroup per application before its {@code spark-submit} (a Volcano one, {@code spark-<name>-pg}, for
 * {@code batchScheduler: volcano}; a scheduler-plugins one, {@code <name>-pg}, for a name in
 * {@code --kube-scheduler-names}), whose {@code minResources} ignore dynamic allocation and memory
 * overhead. {@link dev.muster.bridge.spark.operator.SparkApplicationController} writes the
 * {@code minResources} the application will really request (the feature step's arithmetic, through
 * {@link dev.muster.bridge.spark.ConfMinResources}), the queue and priority class of
 * {@code batchSchedulerOptions}, and posts Muster's pending reason and bad input as Events on the
 * SparkApplication. The runs a ScheduledSparkApplication makes are SparkApplications like any other; their
 * bad input is also told on the ScheduledSparkApplication, by its {@code spec.template} field. Muster's executor
 * annotations on the group are what the engine's {@code executorreservation} plugin reads.
 *
 * <p>Unlike its parent package, this runs inside Muster (kubernetes-runtime's controller SPI), never on
 * Spark's class path.
 */
package dev.muster.bridge.spark.operator;
