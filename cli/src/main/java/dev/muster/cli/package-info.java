/**
 * The {@code muster} command line: {@code what-if} over a cluster dump and {@code bench} of one
 * scheduling cycle. {@link dev.muster.cli.Main} builds the one injector.
 */
package dev.muster.cli;
