package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.HyperNode;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Converts a {@code topology.volcano.sh/v1alpha1} HyperNode; one with a bad field is left out. */
final class HyperNodeConverter {
    private HyperNodeConverter() {}

    static Optional<HyperNode> convert(ManifestObject object, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        Optional<Integer> tier = reader.integer("spec.tier");
        if (tier.isEmpty() && !reader.hasErrors()) {
            reader.error("spec.tier", "is missing");
        }
        String tierName = reader.string("spec.tierName").orElse("");
        ImmutableList.Builder<HyperNode.Member> members = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array("spec.members");
        for (int index = 0; index < nodes.size(); index++) {
            member(reader, nodes.get(index), "spec.members[" + index + "]").ifPresent(members::add);
        }
        if (reader.hasErrors()) {
            return Optional.empty();
        }
        return Optional.of(new HyperNode(object.name(), tier.orElseThrow(), tierName, members.build()));
    }

    private static Optional<HyperNode.Member> member(FieldReader reader, JsonNode node, String path) {
        if (!reader.isMapOrAbsent(node, path)) {
            return Optional.empty();
        }
        String type = reader.string(node.path("type"), path + ".type").orElse("");
        if (!type.equals("Node") && !type.equals("HyperNode")) {
            reader.error(path + ".type", "'" + type + "' is not one of Node, HyperNode");
            return Optional.empty();
        }
        JsonNode selector = node.path("selector");
        String selectorPath = path + ".selector";
        if (!reader.isMapOrAbsent(selector, selectorPath)) {
            return Optional.empty();
        }
        Optional<String> exact = reader.string(selector.path("exactMatch").path("name"), selectorPath + ".exactMatch.name");
        Optional<String> regex = reader.string(selector.path("regexMatch").path("pattern"), selectorPath + ".regexMatch.pattern");
        JsonNode labelMatch = selector.path("labelMatch");
        ImmutableMap<String, String> labels =
                reader.stringMap(labelMatch.path("matchLabels"), selectorPath + ".labelMatch.matchLabels");
        if (!FieldReader.absent(labelMatch.path("matchExpressions"))) {
            reader.error(selectorPath + ".labelMatch.matchExpressions", "is not supported; use matchLabels");
            return Optional.empty();
        }
        int selectors = (exact.isPresent() ? 1 : 0) + (regex.isPresent() ? 1 : 0) + (FieldReader.absent(labelMatch) ? 0 : 1);
        if (selectors != 1) {
            reader.error(selectorPath, "needs exactly one of exactMatch, regexMatch, labelMatch");
            return Optional.empty();
        }
        if (regex.isPresent()) {
            try {
                Pattern.compile(regex.get());
            } catch (PatternSyntaxException e) {
                reader.error(selectorPath + ".regexMatch.pattern", "'" + regex.get() + "' is not a regular expression: "
                        + e.getDescription());
                return Optional.empty();
            }
        }
        return Optional.of(new HyperNode.Member(type.equals("HyperNode"), exact.orElse(""), regex.orElse(""), labels));
    }
}
