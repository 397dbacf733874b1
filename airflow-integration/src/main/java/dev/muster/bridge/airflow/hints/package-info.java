/**
 * What the bridge makes of one DAG run's task graph and history: each task's remaining critical path
 * (through {@code dependency-graph}), its priority weight, its Muster queue (from its pool or queue),
 * and whether it is a gang over its map indexes. Pure: no I/O, no Kubernetes.
 */
package dev.muster.bridge.airflow.hints;
