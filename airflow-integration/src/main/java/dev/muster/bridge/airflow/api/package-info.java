/**
 * Airflow's REST API as Muster sees it: {@link dev.muster.bridge.airflow.api.AirflowApi}, with one
 * implementation per API version over the client generated from Airflow's own OpenAPI documents (v2 of
 * Airflow 3 with a JWT, v1 of Airflow 2 with basic auth), a retrying wrapper, and the settings. No
 * generated type leaves this package.
 */
package dev.muster.bridge.airflow.api;
