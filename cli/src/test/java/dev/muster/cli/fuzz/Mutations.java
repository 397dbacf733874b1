package dev.muster.cli.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.common.collect.ImmutableSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mistakes a user's input has, as issue 16 lists them, each applied to one base input with a
 * seeded {@link Random}. Structural mutations rewrite one document's tree and write it back as JSON
 * (which YAML reads); textual ones edit the YAML text, so YAML's own forms ({@code .inf}, aliases) and
 * broken bytes reach the reader as a user would write them.
 */
final class Mutations {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern QUANTITY_LINE = Pattern.compile("(?m)^(\\s*(?:cpu|memory|pods|nvidia\\.com/gpu|[a-z0-9.]+/[a-z0-9-]+)"
            + ":\\s*)(\"?[0-9][0-9.]*[A-Za-z]*\"?)\\s*$");
    private static final List<String> BAD_QUANTITIES = List.of(".inf", "-.inf", ".nan", "-1", "1.2.3", "5Gb", "1e999999999999", "\"\"",
            "\"\u221e\"", "0x10", "\" 1\"", "1e2000000000", "[1]", "{a: b}", "true", "~");
    private static final List<String> KINDS = List.of("Widget", "Node", "Pod", "PodGroup", "Queue", "HyperNode", "PriorityClass", "");

    private Mutations() {}

    static FuzzInput mutate(FuzzBase base, Random random) {
        int document = random.nextInt(base.documents().size());
        return switch (random.nextInt(15)) {
            case 0 -> structural(base, document, "wrong type", tree -> wrongType(tree, random));
            case 1 -> badQuantity(base, document, random);
            case 2 -> structural(base, document, "missing field", tree -> removeField(tree, random));
            case 3 -> structural(base, document, "huge field", tree -> hugeField(tree, random));
            case 4 -> changedKind(base, document, KINDS.get(random.nextInt(KINDS.size())));
            case 5 -> duplicate(base, document);
            case 6 -> brokenReference(base, document, random);
            case 7 -> topologyCycle(base);
            case 8 -> truncated(base, random);
            case 9 -> notUtf8(base, document, random);
            case 10 -> deepNesting(base, document, 1001 + random.nextInt(3000));
            case 11 -> aliases(base, document);
            case 12 -> textual(base, document, "alias bomb", text -> text + bomb(3 + random.nextInt(6)));
            case 13 -> ConfigMutations.mutate(base, random);
            default -> structural(base, document, "wrong type", tree -> wrongType(tree, random));
        };
    }

    interface TreeEdit {
        String apply(ObjectNode tree);
    }

    interface TextEdit {
        String apply(String text);
    }

    private static FuzzInput structural(FuzzBase base, int document, String mutation, TreeEdit edit) {
        Optional<JsonNode> tree = base.trees().get(document);
        if (tree.isEmpty() || !tree.get().isObject()) {
            return textual(base, document, mutation + " (as text)", text -> text + "extra: [1, {a: 2}]\n");
        }
        ObjectNode copy = tree.get().deepCopy();
        String field = edit.apply(copy);
        List<String> documents = new ArrayList<>(base.documents());
        documents.set(document, json(copy));
        return input(base, mutation + " at document " + document + " field " + field, documents, document, inertUnlessTopology(base, document));
    }

    /** JSON with a blank after each colon, which YAML 1.1 needs to see a value in a flow mapping. */
    private static String json(ObjectNode tree) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree always writes as JSON", e);
        }
    }

    private static FuzzInput textual(FuzzBase base, int document, String mutation, TextEdit edit) {
        List<String> documents = new ArrayList<>(base.documents());
        documents.set(document, edit.apply(documents.get(document)));
        return input(base, mutation + " at document " + document, documents, document, inertUnlessTopology(base, document));
    }

    private static boolean inertUnlessTopology(FuzzBase base, int document) {
        return !base.kind(document).equals("HyperNode");
    }

    static FuzzInput input(FuzzBase base, String mutation, List<String> documents, int touched, boolean inert) {
        return new FuzzInput(base.name() + ": " + mutation, FuzzBase.join(documents).getBytes(StandardCharsets.UTF_8), Optional.empty(),
                ImmutableSet.of(touched), Integer.MAX_VALUE, inert);
    }

    private static String wrongType(ObjectNode tree, Random random) {
        List<String> paths = new ArrayList<>();
        collect(tree, "", paths);
        String path = paths.get(random.nextInt(paths.size()));
        JsonNode current = at(tree, path);
        JsonNode replacement = current.isContainerNode() ? new TextNode("not-a-" + (current.isArray() ? "list" : "map"))
                : random.nextBoolean() ? JSON.createArrayNode().add(1).add("two") : JSON.createObjectNode().put("a", "b");
        set(tree, path, replacement);
        return path;
    }

    private static String removeField(ObjectNode tree, Random random) {
        List<String> paths = new ArrayList<>();
        collect(tree, "", paths);
        String path = paths.get(random.nextInt(paths.size()));
        set(tree, path, null);
        return path;
    }

    private static String hugeField(ObjectNode tree, Random random) {
        List<String> candidates = List.of("metadata.name", "metadata.namespace", "metadata.labels.huge", "metadata.annotations.huge",
                "spec.queue", "spec.schedulerName", "spec.priorityClassName");
        String path = candidates.get(random.nextInt(candidates.size()));
        set(tree, path, new TextNode("x".repeat(1000 + random.nextInt(300_000))));
        return path;
    }

    private static String brokenReference(ObjectNode tree, Random random) {
        String kind = tree.path("kind").asText();
        switch (kind) {
            case "Pod" -> {
                String path = random.nextBoolean() ? "metadata\u0000annotations\u0000scheduling.k8s.io/group-name" : "spec\u0000nodeName";
                set(tree, path, new TextNode("ghost-" + random.nextInt(100)));
                return path.replace('\u0000', '.');
            }
            case "PodGroup" -> {
                set(tree, "spec.queue", new TextNode("nowhere-" + random.nextInt(100)));
                return "spec.queue";
            }
            case "Queue" -> {
                set(tree, "spec.parent", new TextNode("no-parent-" + random.nextInt(100)));
                return "spec.parent";
            }
            case "HyperNode" -> {
                ArrayNode members = tree.withObjectProperty("spec").withArrayProperty("members");
                members.addObject().put("type", "HyperNode").putObject("selector").putObject("exactMatch").put("name", "missing");
                return "spec.members";
            }
            default -> {
                set(tree, "spec.priorityClassName", new TextNode("no-such-class"));
                return "spec.priorityClassName";
            }
        }
    }

    private static FuzzInput badQuantity(FuzzBase base, int document, Random random) {
        String text = base.documents().get(document);
        Matcher matcher = QUANTITY_LINE.matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (matcher.find()) {
            spans.add(new int[] {matcher.start(2), matcher.end(2)});
        }
        if (spans.isEmpty()) {
            return structural(base, document, "bad quantity (as a tree)", tree -> {
                set(tree, "spec.minResources.cpu", new TextNode(BAD_QUANTITIES.get(random.nextInt(BAD_QUANTITIES.size()))));
                return "spec.minResources.cpu";
            });
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String bad = BAD_QUANTITIES.get(random.nextInt(BAD_QUANTITIES.size()));
        List<String> documents = new ArrayList<>(base.documents());
        documents.set(document, text.substring(0, span[0]) + bad + text.substring(span[1]));
        return input(base, "bad quantity " + bad + " at document " + document, documents, document,
                inertUnlessTopology(base, document));
    }

    private static FuzzInput brokenReference(FuzzBase base, int document, Random random) {
        FuzzInput broken = structural(base, document, "broken reference", tree -> brokenReference(tree, random));
        // a pod that names a node, even one that does not exist, runs there as far as its queue is concerned: it
        // holds its share, so others may go elsewhere (Volcano counts it too)
        boolean inert = broken.inert() && !broken.mutation().endsWith("spec.nodeName");
        return new FuzzInput(broken.mutation(), broken.cluster(), broken.config(), broken.touched(), broken.fromDocument(), inert);
    }

    private static FuzzInput changedKind(FuzzBase base, int document, String kind) {
        FuzzInput changed = structural(base, document, "kind changed to '" + kind + "'", tree -> {
            tree.put("kind", kind);
            return "kind";
        });
        // a document that becomes a Node, Queue, PriorityClass or HyperNode adds what others may be placed against
        boolean inert = changed.inert() && !List.of("Node", "Queue", "PriorityClass", "HyperNode").contains(kind);
        return new FuzzInput(changed.mutation(), changed.cluster(), changed.config(), changed.touched(), changed.fromDocument(), inert);
    }

    private static FuzzInput duplicate(FuzzBase base, int document) {
        List<String> documents = new ArrayList<>(base.documents());
        documents.add(base.documents().get(document));
        // the copy comes last: the first of two objects with one name is kept, so the original still counts
        return new FuzzInput(base.name() + ": duplicate of document " + document,
                FuzzBase.join(documents).getBytes(StandardCharsets.UTF_8), Optional.empty(), ImmutableSet.of(), Integer.MAX_VALUE, true);
    }

    private static FuzzInput topologyCycle(FuzzBase base) {
        List<String> documents = new ArrayList<>(base.documents());
        for (String name : List.of("cycle-a", "cycle-b")) {
            String other = name.equals("cycle-a") ? "cycle-b" : "cycle-a";
            documents.add("apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: " + name + "}\n"
                    + "spec: {tier: 1, members: [{type: HyperNode, selector: {exactMatch: {name: " + other + "}}}]}\n");
        }
        return new FuzzInput(base.name() + ": a cycle of two HyperNodes added", FuzzBase.join(documents).getBytes(StandardCharsets.UTF_8),
                Optional.empty(), ImmutableSet.of(), Integer.MAX_VALUE, false);
    }

    private static FuzzInput truncated(FuzzBase base, Random random) {
        byte[] whole = FuzzBase.join(base.documents()).getBytes(StandardCharsets.UTF_8);
        int cut = random.nextInt(whole.length);
        byte[] bytes = Arrays.copyOf(whole, cut);
        int document = documentAt(base, cut);
        // a cut inside a '---' line leaves '-' or '--' at the end of the document before it
        int touchedFrom = documentAt(base, Math.max(0, cut - 4));
        return new FuzzInput(base.name() + ": cut at byte " + cut, bytes, Optional.empty(), ImmutableSet.of(touchedFrom, document),
                touchedFrom, false);
    }

    private static FuzzInput notUtf8(FuzzBase base, int document, Random random) {
        List<String> documents = new ArrayList<>(base.documents());
        byte[] before = FuzzBase.join(documents.subList(0, document)).getBytes(StandardCharsets.UTF_8);
        byte[] own = ("---\n" + documents.get(document)).getBytes(StandardCharsets.UTF_8);
        byte[] after = FuzzBase.join(documents.subList(document + 1, documents.size())).getBytes(StandardCharsets.UTF_8);
        int at = 4 + random.nextInt(Math.max(1, own.length - 4));
        byte[] badByte = {new byte[] {(byte) 0xE9, (byte) 0xFF, (byte) 0xC3, (byte) 0x80}[random.nextInt(4)]};
        byte[] bytes = new byte[before.length + own.length + badByte.length + after.length];
        System.arraycopy(before, 0, bytes, 0, before.length);
        System.arraycopy(own, 0, bytes, before.length, at);
        System.arraycopy(badByte, 0, bytes, before.length + at, 1);
        System.arraycopy(own, at, bytes, before.length + at + 1, own.length - at);
        System.arraycopy(after, 0, bytes, before.length + own.length + 1, after.length);
        return new FuzzInput(base.name() + ": a byte that is not UTF-8 in document " + document + " at offset " + at, bytes,
                Optional.empty(), ImmutableSet.of(document), Integer.MAX_VALUE, inertUnlessTopology(base, document));
    }

    private static FuzzInput deepNesting(FuzzBase base, int document, int depth) {
        return textual(base, document, "nesting " + depth + " deep", text -> text + "deep: " + "[".repeat(depth) + "]".repeat(depth) + "\n");
    }

    /** Requests written once with an anchor and used again as limits through an alias: the document must read as before. */
    private static FuzzInput aliases(FuzzBase base, int document) {
        String text = base.documents().get(document);
        Matcher requests = Pattern.compile("(?m)^(\\s*)requests:\\s*(\\{[^}\\n]*\\})\\s*$").matcher(text);
        if (!requests.find() || text.contains("limits:")) {
            return textual(base, document, "an anchor and an alias", own -> own + "anchored: &anchor {a: 1}\nagain: *anchor\n");
        }
        String rewritten = text.substring(0, requests.start()) + requests.group(1) + "requests: &req " + requests.group(2) + "\n"
                + requests.group(1) + "limits: *req\n" + text.substring(requests.end()).replaceFirst("^\n", "");
        List<String> documents = new ArrayList<>(base.documents());
        documents.set(document, rewritten);
        // an alias is no mistake: the document is not touched, it must still be read and placed as before
        return new FuzzInput(base.name() + ": limits as an alias of requests in document " + document,
                FuzzBase.join(documents).getBytes(StandardCharsets.UTF_8), Optional.empty(), ImmutableSet.of(), Integer.MAX_VALUE, true);
    }

    private static String bomb(int levels) {
        StringBuilder bomb = new StringBuilder("bomb0: &b0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int level = 1; level <= levels; level++) {
            bomb.append("bomb").append(level).append(": &b").append(level).append(" [")
                    .append(String.join(", ", Collections.nCopies(10, "*b" + (level - 1)))).append("]\n");
        }
        return bomb.toString();
    }

    private static int documentAt(FuzzBase base, int offset) {
        int end = 0;
        for (int index = 0; index < base.documents().size(); index++) {
            end += ("---\n" + base.documents().get(index)).getBytes(StandardCharsets.UTF_8).length
                    + (base.documents().get(index).endsWith("\n") ? 0 : 1);
            if (offset < end) {
                return index;
            }
        }
        return base.documents().size() - 1;
    }

    private static void collect(JsonNode node, String path, List<String> paths) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String child = path.isEmpty() ? field.getKey() : path + "\u0000" + field.getKey();
                paths.add(child);
                collect(field.getValue(), child, paths);
            }
        }
    }

    private static JsonNode at(ObjectNode tree, String path) {
        JsonNode node = tree;
        for (String step : path.contains("\u0000") ? path.split("\u0000") : path.split("\\.")) {
            node = node.path(step);
        }
        return node;
    }

    /** Sets (or, for null, removes) the field at a path of steps split at '.' or NUL (NUL where a key holds dots). */
    static void set(ObjectNode tree, String path, JsonNode value) {
        String[] steps = path.contains("\u0000") ? path.split("\u0000") : path.split("\\.");
        ObjectNode node = tree;
        for (int index = 0; index < steps.length - 1; index++) {
            JsonNode next = node.path(steps[index]);
            if (!next.isObject()) {
                next = node.putObject(steps[index]);
            }
            node = (ObjectNode) next;
        }
        if (value == null) {
            node.remove(steps[steps.length - 1]);
        } else {
            node.set(steps[steps.length - 1], value);
        }
    }
}
