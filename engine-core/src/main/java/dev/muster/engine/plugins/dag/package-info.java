/**
 * The {@code dag} plugin: jobs that belong to a job DAG (see {@link dev.muster.engine.plugins.dag.DagAnnotations})
 * enter their queue only when their parents are done, and are ordered by their remaining critical
 * path, longest first, so the longest chain is not starved by short side stages.
 */
package dev.muster.engine.plugins.dag;
