package dev.muster.cli.fuzz;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.yaml.YamlDocument;
import dev.muster.engine.yaml.YamlDocuments;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An unmutated input the fuzz test starts from: a conformance case's cluster and configuration, or an
 * example's manifests with the built-in configuration; its documents as text, and what the unmutated
 * input gave.
 *
 * @param documents each document's text, separators not included, in file order
 * @param trees each document's tree; empty for an empty document
 * @param baseBinds {@code ns/pod -> node} of the unmutated session
 * @param basePipelined the pods the unmutated session reserved a node for without binding them
 */
record FuzzBase(String name, ImmutableList<String> documents, ImmutableList<Optional<JsonNode>> trees, Optional<byte[]> config,
        ImmutableMap<String, String> baseBinds, ImmutableSet<String> basePipelined) {
    FuzzBase {
        requireNonNull(name, "name is null");
        documents = ImmutableList.copyOf(documents);
        trees = ImmutableList.copyOf(trees);
        requireNonNull(config, "config is null");
        baseBinds = ImmutableMap.copyOf(baseBinds);
        basePipelined = ImmutableSet.copyOf(basePipelined);
    }

    FuzzBase withOutcome(ImmutableMap<String, String> binds, ImmutableSet<String> pipelined) {
        return new FuzzBase(name, documents, trees, config, binds, pipelined);
    }

    /** Whether the unmutated session bound the pod or reserved a node for it. */
    boolean placed(String pod) {
        return baseBinds.containsKey(pod) || basePipelined.contains(pod);
    }

    static FuzzBase of(String name, Path cluster, Optional<Path> config) {
        try {
            String text = Files.readString(cluster, StandardCharsets.UTF_8);
            List<String> documents = new ArrayList<>();
            List<Optional<JsonNode>> trees = new ArrayList<>();
            for (YamlDocument document : YamlDocuments.read(cluster.toString(), text)) {
                trees.add(document.tree());
            }
            // the same split as the reader's: one text per document, without its '---' line
            StringBuilder current = null;
            for (String line : text.split("\n", -1)) {
                if (line.equals("---") || line.startsWith("--- ")) {
                    // text before the first separator is a document only when it holds more than comments
                    if (current != null && !(documents.isEmpty() && current.toString().lines()
                            .allMatch(kept -> kept.isBlank() || kept.strip().startsWith("#")))) {
                        documents.add(current.toString());
                    }
                    current = new StringBuilder();
                    continue;
                }
                if (current == null) {
                    current = new StringBuilder();
                }
                current.append(line).append('\n');
            }
            if (current != null && !current.toString().isBlank()) {
                documents.add(current.toString());
            }
            if (documents.size() != trees.size()) {
                throw new IllegalStateException(name + ": " + documents.size() + " texts but " + trees.size() + " documents");
            }
            Optional<byte[]> configBytes = config.isPresent() ? Optional.of(Files.readAllBytes(config.get())) : Optional.empty();
            return new FuzzBase(name, ImmutableList.copyOf(documents), ImmutableList.copyOf(trees), configBytes, ImmutableMap.of(),
                    ImmutableSet.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The documents joined back into a file. */
    static String join(List<String> documents) {
        StringBuilder text = new StringBuilder();
        for (String document : documents) {
            text.append("---\n").append(document);
            if (!document.endsWith("\n")) {
                text.append('\n');
            }
        }
        return text.toString();
    }

    String kind(int document) {
        return trees.get(document).map(tree -> tree.path("kind").asText("")).orElse("");
    }
}
