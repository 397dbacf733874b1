package dev.muster.cli.fuzz;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Task;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The parts of issue 16's contract that need more than a comparison. */
final class Contract {
    /**
     * What only a program's internals print: an exception or error class, a Java or library package,
     * Jackson's constraint and source texts, a stack frame.
     */
    private static final Pattern INTERNAL = Pattern.compile(
            "\\b[A-Z][A-Za-z]*(Exception|Error)\\b|\\bjava\\.[a-z]|\\bcom\\.fasterxml|\\borg\\.yaml|\\bsnakeyaml|StreamReadConstraints|\\[Source:"
                    + "|REDACTED|\\n\\s+at [a-z]+\\.");

    private Contract() {}

    static Optional<String> internalText(String output) {
        Matcher matcher = INTERNAL.matcher(output);
        if (!matcher.find()) {
            return Optional.empty();
        }
        int lineStart = output.lastIndexOf('\n', matcher.start()) + 1;
        int lineEnd = output.indexOf('\n', matcher.end());
        String line = output.substring(lineStart, lineEnd < 0 ? output.length() : lineEnd);
        return Optional.of(line.length() > 300 ? line.substring(0, 300) + "..." : line);
    }

    static String firstLine(String text) {
        String line = text.lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /**
     * Whether every object the mutation touched held no resources: a Pod neither bound by the base session
     * nor already on a node, a PodGroup none of whose pods was, or an object of a kind that is not
     * scheduled against (an unknown kind). A touched Node, Queue, PriorityClass or HyperNode changes
     * where others go, legitimately.
     */
    static boolean touchesNothingPlaced(FuzzBase base, FuzzInput input, ImmutableMap<String, Task> tasks) {
        for (int document : input.touched()) {
            if (document >= base.documents().size()) {
                continue;
            }
            String kind = base.kind(document);
            String name = ObjectKeys.named(base.trees().get(document)).stream().findFirst().orElse("");
            String id = name.contains(" ") ? name.substring(name.indexOf(' ') + 1) : "";
            switch (kind) {
                case "Pod" -> {
                    Task task = tasks.get(id);
                    if (base.placed(id) || (task != null && task.node().isPresent())) {
                        return false;
                    }
                }
                case "PodGroup" -> {
                    for (Task task : tasks.values()) {
                        if (task.job().toString().equals(id) && (task.node().isPresent() || base.placed(task.id().toString()))) {
                            return false;
                        }
                    }
                }
                case "Node", "Queue", "PriorityClass", "HyperNode", "List" -> {
                    return false;
                }
                default -> {
                    // an unknown kind, or a document that is not an object: nothing is placed against it
                }
            }
        }
        return true;
    }

    /**
     * Whether the mutated session bound a pod of a job the mutation touched: then the mutation made that
     * job schedulable (a pod now asks for less, a gang is smaller) and it may take what others had.
     */
    static boolean bindsTouchedJobs(FuzzBase base, FuzzInput input, ImmutableMap<String, Task> tasks, Iterable<String> boundPods) {
        Set<String> touchedJobs = new HashSet<>();
        Set<String> touchedPods = new HashSet<>();
        for (int document : input.touched()) {
            if (document >= base.documents().size()) {
                continue;
            }
            for (String key : ObjectKeys.named(base.trees().get(document))) {
                String id = key.substring(key.indexOf(' ') + 1);
                if (key.startsWith("PodGroup ")) {
                    touchedJobs.add(id);
                } else if (key.startsWith("Pod ")) {
                    touchedPods.add(id);
                    Optional.ofNullable(tasks.get(id)).ifPresent(task -> touchedJobs.add(task.job().toString()));
                }
            }
        }
        for (String pod : boundPods) {
            Task task = tasks.get(pod);
            if (touchedPods.contains(pod) || task == null || touchedJobs.contains(task.job().toString())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a pod's document is one the mutation left alone. */
    static boolean untouchedPod(FuzzBase base, FuzzInput input, String pod) {
        for (int document = 0; document < base.documents().size(); document++) {
            if (ObjectKeys.named(base.trees().get(document)).contains("Pod " + pod)) {
                return input.untouched(document);
            }
        }
        return true;
    }
}
