/**
 * The Airflow bridge: a Guice module whose controller, once per leader term, watches the pods Airflow
 * launched and writes each one's PodGroup with the hints of its DAG run read through Airflow's REST API.
 */
package dev.muster.bridge.airflow;
