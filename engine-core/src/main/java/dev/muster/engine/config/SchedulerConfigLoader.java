package dev.muster.engine.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.ConfiguredPlugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.PluginFlag;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.yaml.Texts;
import dev.muster.engine.yaml.Positions;
import dev.muster.engine.yaml.YamlDocument;
import dev.muster.engine.yaml.YamlDocuments;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Loads a scheduler configuration in Volcano's {@code volcano-scheduler.conf} format, strictly: every
 * unknown action, plugin, flag or argument is a problem naming its path and the nearest known name,
 * and all problems are reported at once. An unset flag means enabled, as in Volcano.
 */
public final class SchedulerConfigLoader {
    private static final Set<String> TOP_LEVEL_KEYS = ImmutableSet.of("actions", "tiers", "configurations", "metrics");

    private final ImmutableMap<String, PluginFactory<?>> plugins;
    private final ImmutableMap<String, ActionFactory<?>> actions;
    private final ObjectMapper yaml;

    @Inject
    public SchedulerConfigLoader(Map<String, PluginFactory<?>> plugins, Map<String, ActionFactory<?>> actions) {
        this.plugins = ImmutableMap.copyOf(requireNonNull(plugins, "plugins is null"));
        this.actions = ImmutableMap.copyOf(requireNonNull(actions, "actions is null"));
        this.yaml = new ObjectMapper()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    public SessionConfig load(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ConfigException(path.toString(), List.of(new ConfigProblem("", "cannot read: no such file")));
        } catch (IOException e) {
            throw new ConfigException(path.toString(), List.of(new ConfigProblem("", "cannot read: "
                    + Optional.ofNullable(e.getMessage()).orElse("I/O error"))));
        }
        return parse(path.toString(), bytes);
    }

    public SessionConfig parse(String source, String text) {
        return parse(source, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads the configuration as Kubernetes reads YAML (aliases resolved, strict UTF-8; see {@link YamlDocuments}). */
    private SessionConfig parse(String source, byte[] bytes) {
        JsonNode root = null;
        Positions positions = Positions.NONE;
        for (YamlDocument document : YamlDocuments.read(source, bytes)) {
            if (document.error().isPresent()) {
                throw new ConfigException(source, List.of(new ConfigProblem("", document.error().get().describe())));
            }
            if (document.tree().isPresent() && !document.tree().get().isNull()) {
                if (root != null) {
                    throw new ConfigException(source, List.of(new ConfigProblem("", "line " + document.firstLine()
                            + ": a second YAML document; a configuration is one document")));
                }
                root = document.tree().get();
                positions = document.positions();
            }
        }
        List<ConfigProblem> problems = new ArrayList<>();
        if (root == null || !root.isObject()) {
            throw new ConfigException(source, List.of(new ConfigProblem("", "expected a mapping with 'actions' and 'tiers'")));
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!TOP_LEVEL_KEYS.contains(name)) {
                problems.add(new ConfigProblem(name, "unknown key" + Suggestions.didYouMean(name, TOP_LEVEL_KEYS)
                        + " (known: " + String.join(", ", new TreeSet<>(TOP_LEVEL_KEYS)) + ")"));
            }
        }
        List<String> actionNames = readActionNames(root.get("actions"), problems);
        Map<String, JsonNode> actionArguments = readActionConfigurations(root.get("configurations"), problems);
        List<Action> configuredActions = new ArrayList<>();
        for (int i = 0; i < actionNames.size(); i++) {
            String name = actionNames.get(i);
            ActionFactory<?> factory = actions.get(name);
            if (factory == null) {
                problems.add(new ConfigProblem("actions[" + i + "]", "unknown action '" + name + "'"
                        + Suggestions.didYouMean(name, actions.keySet()) + " (known: " + String.join(", ", new TreeSet<>(actions.keySet())) + ")"));
                continue;
            }
            Optional<Record> args = bind(factory.argsType(), factory.defaultArgs(), actionArguments.get(name),
                    "configurations[" + name + "].arguments", problems);
            args.ifPresent(bound -> configuredActions.add(createAction(factory, bound)));
        }
        for (String name : actionArguments.keySet()) {
            if (!actionNames.contains(name) && !actions.containsKey(name)) {
                problems.add(new ConfigProblem("configurations[" + name + "]", "unknown action '" + name + "'"
                        + Suggestions.didYouMean(name, actions.keySet())));
            } else if (!actionNames.contains(name)) {
                // not run, but checked all the same: it would be run as soon as someone lists it
                ActionFactory<?> factory = actions.get(name);
                bind(factory.argsType(), factory.defaultArgs(), actionArguments.get(name), "configurations[" + name + "].arguments", problems);
            }
        }
        List<ImmutableList<ConfiguredPlugin>> tiers = readTiers(root.get("tiers"), problems);
        if (!problems.isEmpty()) {
            Positions written = positions;
            throw new ConfigException(source, problems.stream().map(problem -> problem.locatedIn(written)).toList());
        }
        return new SessionConfig(ImmutableList.copyOf(configuredActions), ImmutableList.copyOf(tiers));
    }

    private static <A extends Record> Action createAction(ActionFactory<A> factory, Record args) {
        return factory.create(factory.argsType().cast(args));
    }

    private static List<String> readActionNames(JsonNode node, List<ConfigProblem> problems) {
        List<String> names = new ArrayList<>();
        if (node == null || node.isNull()) {
            problems.add(new ConfigProblem("actions", "missing; e.g. actions: \"enqueue, allocate, backfill\""));
            return names;
        }
        if (node.isTextual()) {
            for (String part : node.asText().split(",")) {
                if (!part.trim().isEmpty()) {
                    names.add(part.trim());
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                names.add(element.asText().trim());
            }
        } else {
            problems.add(new ConfigProblem("actions", "expected a comma-separated string or a list, got " + node.getNodeType()));
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                problems.add(new ConfigProblem("actions", "action '" + name + "' is listed twice"));
            }
        }
        return names;
    }

    private static Map<String, JsonNode> readActionConfigurations(JsonNode node, List<ConfigProblem> problems) {
        Map<String, JsonNode> result = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return result;
        }
        if (!node.isArray()) {
            problems.add(new ConfigProblem("configurations", "expected a list of {name, arguments}"));
            return result;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String path = "configurations[" + i + "]";
            if (!entry.isObject() || !entry.path("name").isTextual()) {
                problems.add(new ConfigProblem(path, "expected {name, arguments}"));
                continue;
            }
            for (Iterator<String> keys = entry.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!key.equals("name") && !key.equals("arguments")) {
                    problems.add(new ConfigProblem(path, "unknown key '" + key + "' (known: name, arguments)"));
                }
            }
            if (result.containsKey(entry.get("name").asText())) {
                problems.add(new ConfigProblem(path, "action '" + entry.get("name").asText() + "' is configured twice"));
            }
            result.put(entry.get("name").asText(), entry.get("arguments"));
        }
        return result;
    }

    private List<ImmutableList<ConfiguredPlugin>> readTiers(JsonNode node, List<ConfigProblem> problems) {
        List<ImmutableList<ConfiguredPlugin>> tiers = new ArrayList<>();
        if (node == null || node.isNull()) {
            problems.add(new ConfigProblem("tiers", "missing; e.g. tiers: [{plugins: [{name: gang}]}]"));
            return tiers;
        }
        if (!node.isArray()) {
            problems.add(new ConfigProblem("tiers", "expected a list of {plugins: [...]}"));
            return tiers;
        }
        Set<String> seen = new HashSet<>();
        for (int t = 0; t < node.size(); t++) {
            Map<String, Boolean> hierarchy = new LinkedHashMap<>();
            Set<String> inTier = new HashSet<>();
            JsonNode tier = node.get(t);
            String tierPath = "tiers[" + t + "]";
            if (!tier.isObject() || !tier.path("plugins").isArray()) {
                problems.add(new ConfigProblem(tierPath, "expected {plugins: [...]}"));
                continue;
            }
            for (Iterator<String> keys = tier.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!key.equals("plugins")) {
                    problems.add(new ConfigProblem(tierPath, "unknown key '" + key + "' (known: plugins)"));
                }
            }
            List<ConfiguredPlugin> configured = new ArrayList<>();
            JsonNode list = tier.get("plugins");
            for (int p = 0; p < list.size(); p++) {
                String path = tierPath + ".plugins[" + p + "]";
                readPlugin(list.get(p), path, problems, seen, hierarchy).ifPresent(plugin -> {
                    configured.add(plugin);
                    inTier.add(plugin.name());
                });
            }
            tiers.add(ImmutableList.copyOf(configured));
            // Volcano refuses the pair within one tier: both would order and cap the same queues
            if (inTier.contains("proportion") && hierarchy.getOrDefault("drf", false)) {
                problems.add(new ConfigProblem(tierPath, "plugin 'proportion' cannot be used with 'drf' enableHierarchy: true in the same tier (hierarchical drf replaces proportion)"));
            }
        }
        return tiers;
    }

    private Optional<ConfiguredPlugin> readPlugin(JsonNode node, String path, List<ConfigProblem> problems,
            Set<String> seen, Map<String, Boolean> hierarchy) {
        if (!node.isObject() || !node.path("name").isTextual()) {
            problems.add(new ConfigProblem(path, "expected {name: ..., arguments: {...}}"));
            return Optional.empty();
        }
        String name = node.get("name").asText();
        PluginFactory<?> factory = plugins.get(name);
        if (factory == null) {
            problems.add(new ConfigProblem(path, "unknown plugin '" + name + "'" + Suggestions.didYouMean(name, plugins.keySet())
                    + " (known: " + String.join(", ", new TreeSet<>(plugins.keySet())) + ")"));
            return Optional.empty();
        }
        if (!seen.add(name)) {
            problems.add(new ConfigProblem(path, "plugin '" + name + "' is configured twice"));
        }
        Set<PluginFlag> disabled = EnumSet.noneOf(PluginFlag.class);
        JsonNode arguments = null;
        List<String> knownKeys = new ArrayList<>(List.of("name", "arguments"));
        for (PluginFlag flag : PluginFlag.values()) {
            knownKeys.add(flag.key());
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            if (key.equals("name")) {
                continue;
            }
            if (key.equals("arguments")) {
                arguments = field.getValue();
                continue;
            }
            Optional<PluginFlag> flag = PluginFlag.fromKey(key);
            if (flag.isEmpty()) {
                problems.add(new ConfigProblem(path, "unknown key '" + key + "'" + Suggestions.didYouMean(key, knownKeys)));
                continue;
            }
            if (!field.getValue().isBoolean()) {
                problems.add(new ConfigProblem(path + "." + key, "expected true or false, got '" + field.getValue().asText() + "'"));
                continue;
            }
            if (!field.getValue().asBoolean()) {
                disabled.add(flag.get());
            }
            if (flag.get() == PluginFlag.HIERARCHY) {
                hierarchy.put(name, field.getValue().asBoolean());
            }
        }
        // enableHierarchy is the one flag that is off unless set, as in Volcano
        if (!hierarchy.getOrDefault(name, false)) {
            disabled.add(PluginFlag.HIERARCHY);
        }
        Optional<Record> args = bind(factory.argsType(), factory.defaultArgs(), arguments, path + ".arguments", problems);
        return args.map(bound -> new ConfiguredPlugin(factory, bound, ImmutableSet.copyOf(disabled)));
    }

    private Optional<Record> bind(Class<? extends Record> type, Record defaults, JsonNode given, String path, List<ConfigProblem> problems) {
        if (given == null || given.isNull() || (given.isObject() && given.isEmpty())) {
            return Optional.of(defaults);
        }
        if (!given.isObject()) {
            problems.add(new ConfigProblem(path, "expected a mapping of argument names to values"));
            return Optional.empty();
        }
        ObjectNode tree = yaml.valueToTree(defaults);
        List<String> known = new ArrayList<>();
        tree.fieldNames().forEachRemaining(known::add);
        tree.setAll((ObjectNode) given);
        try {
            return Optional.of(yaml.treeToValue(tree, type));
        } catch (UnrecognizedPropertyException e) {
            if (e.getPath().size() > 1) {
                // inside a nested argument object: name its path and its own keys
                List<String> nestedKnown = new ArrayList<>();
                e.getKnownPropertyIds().forEach(id -> nestedKnown.add(String.valueOf(id)));
                String nestedPath = fieldPath(e);
                int last = nestedPath.lastIndexOf('.');
                problems.add(new ConfigProblem(last < 0 ? path : path + "." + nestedPath.substring(0, last),
                        "unknown argument '" + e.getPropertyName() + "'" + Suggestions.didYouMean(e.getPropertyName(), nestedKnown)
                        + " (known: " + String.join(", ", new TreeSet<>(nestedKnown)) + ")"));
                return Optional.empty();
            }
            problems.add(new ConfigProblem(path, "unknown argument '" + e.getPropertyName() + "'"
                    + Suggestions.didYouMean(e.getPropertyName(), known)
                    + (known.isEmpty() ? " (this takes no arguments)" : " (known: " + String.join(", ", new TreeSet<>(known)) + ")")));
        } catch (InvalidFormatException e) {
            problems.add(new ConfigProblem(path + "." + fieldPath(e), "'" + Texts.shortened(String.valueOf(e.getValue())) + "' is not a valid "
                    + e.getTargetType().getSimpleName()));
        } catch (MismatchedInputException e) {
            problems.add(new ConfigProblem(path + "." + fieldPath(e), "expected " + ArgumentErrors.expected(e.getTargetType())
                    + Optional.ofNullable(ArgumentErrors.argument(given, fieldPath(e))).map(value -> ", found " + value).orElse("")));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // the args records' own checks, e.g. "cpuWeight must be positive: -1", are the root cause
            problems.add(new ConfigProblem(path, ArgumentErrors.rootMessage(e)));
        }
        return Optional.empty();
    }

    private static String fieldPath(MismatchedInputException e) {
        StringBuilder text = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (text.length() > 0) {
                    text.append('.');
                }
                text.append(reference.getFieldName());
            }
        }
        return text.toString();
    }
}
