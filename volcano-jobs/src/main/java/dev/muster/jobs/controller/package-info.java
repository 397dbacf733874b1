/**
 * The Volcano Job lifecycle as pure logic: {@link dev.muster.jobs.controller.JobReconciler}
 * turns a job, the pods observed for it and one request (a pod event, a command, a periodic sync)
 * into a {@link dev.muster.jobs.controller.JobPlan}: pods to create and delete, the PodGroup,
 * plugin objects, the status to write, events, delayed actions and TTL deletion. The runtime applies
 * plans; nothing here talks to the API server, reads a clock or keeps state between calls.
 */
package dev.muster.jobs.controller;
