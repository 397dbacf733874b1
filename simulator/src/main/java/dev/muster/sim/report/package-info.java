/** The self-contained HTML report of a comparison: tables and Chart.js charts inlined in one file. */
package dev.muster.sim.report;
