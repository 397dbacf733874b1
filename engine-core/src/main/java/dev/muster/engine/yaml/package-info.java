/**
 * Reads YAML and JSON text into Jackson trees the way Kubernetes' own reader does: a stream is split
 * into documents at {@code ---} lines first, so a broken document costs only itself; each document is
 * decoded as strict UTF-8, composed by SnakeYAML with anchors, aliases and merge keys resolved (and
 * capped against alias bombs and deep nesting), and its scalars typed by YAML 1.1's rules as kubectl's
 * go-yaml types them. Every problem is a {@link dev.muster.engine.yaml.ReadError} in our words, with
 * its line and column, never a library's exception text. Manifests, the scheduler configuration and
 * the simulator's cluster files are all read through here.
 */
package dev.muster.engine.yaml;
