/**
 * Dependency graphs of jobs and tasks, with no Kubernetes types: an immutable, validated
 * {@link dev.muster.graph.JobGraph} of nodes joined by conditional edges, its
 * {@link dev.muster.graph.TopologicalOrder}, the remaining {@link dev.muster.graph.CriticalPath}
 * from duration estimates, and a {@link dev.muster.graph.GraphRun} that follows node states and
 * answers which nodes may start now and which never will, and why. Volcano {@code Job} task
 * dependencies, Volcano {@code JobFlow}, Argo DAGs and Airflow DAGs all map onto it.
 */
package dev.muster.graph;
