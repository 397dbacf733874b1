package dev.muster.jobs.jobplugins;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A plugin's arguments parsed as Go's {@code flag} package reads them: {@code --name=value},
 * {@code -name=value}, {@code --name value}, and a bare {@code --name} for a boolean. Unknown flags
 * and bad values are problems naming the plugin.
 */
public final class JobPluginFlags {
    private final String plugin;
    private final ImmutableMap<String, String> values;
    private final List<String> problems;

    private JobPluginFlags(String plugin, ImmutableMap<String, String> values, List<String> problems) {
        this.plugin = plugin;
        this.values = values;
        this.problems = problems;
    }

    public static JobPluginFlags parse(String plugin, List<String> arguments, ImmutableSet<String> booleans, ImmutableSet<String> valued,
            List<String> problems) {
        requireNonNull(plugin, "plugin is null");
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (!argument.startsWith("-")) {
                problems.add(path(plugin) + ": '" + argument + "' is not a flag");
                continue;
            }
            String flag = argument.replaceFirst("^--?", "");
            String name = flag.contains("=") ? flag.substring(0, flag.indexOf('=')) : flag;
            Optional<String> inline = flag.contains("=") ? Optional.of(flag.substring(flag.indexOf('=') + 1)) : Optional.empty();
            if (booleans.contains(name)) {
                String value = inline.orElse("true");
                if (!value.equals("true") && !value.equals("false")) {
                    problems.add(path(plugin) + ": --" + name + ": '" + value + "' is not true or false");
                } else {
                    values.put(name, value);
                }
            } else if (valued.contains(name)) {
                if (inline.isPresent()) {
                    values.put(name, inline.get());
                } else if (i + 1 < arguments.size()) {
                    values.put(name, arguments.get(++i));
                } else {
                    problems.add(path(plugin) + ": --" + name + " needs a value");
                }
            } else {
                problems.add(path(plugin) + ": unknown flag --" + name + " (known: "
                        + String.join(", ", ImmutableSet.<String>builder().addAll(booleans).addAll(valued).build().stream().sorted().toList()) + ")");
            }
        }
        return new JobPluginFlags(plugin, ImmutableMap.copyOf(values), problems);
    }

    private static String path(String plugin) {
        return "spec.plugins." + plugin;
    }

    public boolean bool(String name, boolean defaultValue) {
        return values.containsKey(name) ? Boolean.parseBoolean(values.get(name)) : defaultValue;
    }

    public String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    public OptionalInt integer(String name) {
        if (!values.containsKey(name)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(values.get(name)));
        } catch (NumberFormatException e) {
            problems.add(path(plugin) + ": --" + name + ": '" + values.get(name) + "' is not an integer");
            return OptionalInt.empty();
        }
    }
}
