/**
 * Pods that Airflow launched (KubernetesPodOperator, KubernetesExecutor), known by the labels Airflow
 * puts on them, and what the bridge would make of them: the PodGroup of a task, or of a mapped task's
 * gang, with the {@code dag} plugin's annotations.
 */
package dev.muster.bridge.airflow.pods;
