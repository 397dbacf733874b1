/** Admission by what can be placed now: Muster's work-conserving replacement for overcommit's budget. */
package dev.muster.engine.plugins.placeable;
