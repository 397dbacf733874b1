/** Admission against an overcommitted cluster: Volcano's overcommit plugin. */
package dev.muster.engine.plugins.overcommit;
