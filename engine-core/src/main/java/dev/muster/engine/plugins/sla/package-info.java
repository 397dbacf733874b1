/** Service-level waiting times for job admission and ordering: Volcano's sla plugin. */
package dev.muster.engine.plugins.sla;
