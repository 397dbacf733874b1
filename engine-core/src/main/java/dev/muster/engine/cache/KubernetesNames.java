package dev.muster.engine.cache;

import dev.muster.engine.yaml.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * kube-apiserver's rules for the names Muster reads (apimachinery {@code util/validation}): object
 * names are DNS-1123 subdomains of at most 253 characters (Pods, Nodes, PriorityClasses and custom
 * resources alike), namespaces DNS-1123 labels of at most 63, label keys qualified names (an optional
 * DNS-subdomain prefix and a name of at most 63) and label values at most 63 characters. Each check
 * gives what is wrong, in the words of a report, or nothing when the value is valid.
 */
final class KubernetesNames {
    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS_1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS_1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final int SUBDOMAIN_LENGTH = 253;
    private static final int LABEL_LENGTH = 63;

    private KubernetesNames() {}

    /**
     * The objects whose name and namespace kube-apiserver would accept; every other is reported and left
     * out, in files and (where an API server let one through, e.g. an old one) in a live cluster alike.
     */
    static List<ManifestObject> valid(List<ManifestObject> objects, Problems problems) {
        List<ManifestObject> valid = new ArrayList<>(objects.size());
        for (ManifestObject object : objects) {
            Optional<String> badName = subdomain(object.name());
            Optional<String> badNamespace = object.kind().namespaced() ? label(object.namespace()) : Optional.empty();
            badName.ifPresent(problem -> problems.add(object.error("metadata.name", problem)));
            badNamespace.ifPresent(problem -> problems.add(object.error("metadata.namespace", problem)));
            if (badName.isEmpty() && badNamespace.isEmpty()) {
                valid.add(object);
            }
        }
        return valid;
    }

    static Optional<String> subdomain(String name) {
        if (name.length() > SUBDOMAIN_LENGTH) {
            return Optional.of(tooLong(name, SUBDOMAIN_LENGTH));
        }
        if (!DNS_1123_SUBDOMAIN.matcher(name).matches()) {
            return Optional.of(quoted(name) + " is not a DNS-1123 subdomain (lower case letters, digits, '-' and '.', "
                    + "beginning and ending with a letter or digit)");
        }
        return Optional.empty();
    }

    static Optional<String> label(String name) {
        if (name.length() > LABEL_LENGTH) {
            return Optional.of(tooLong(name, LABEL_LENGTH));
        }
        if (!DNS_1123_LABEL.matcher(name).matches()) {
            return Optional.of(quoted(name) + " is not a DNS-1123 label (lower case letters, digits and '-', "
                    + "beginning and ending with a letter or digit)");
        }
        return Optional.empty();
    }

    static Optional<String> labelKey(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty() || subdomain(prefix).isPresent()) {
                return Optional.of("label key " + quoted(key) + " has a prefix that is not a DNS-1123 subdomain");
            }
        }
        if (name.length() > LABEL_LENGTH) {
            return Optional.of("label key " + quoted(key) + " has a name longer than " + LABEL_LENGTH + " characters");
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            return Optional.of("label key " + quoted(key) + " is not a qualified name (letters, digits, '-', '_' and '.', "
                    + "beginning and ending with a letter or digit, after an optional prefix and '/')");
        }
        return Optional.empty();
    }

    static Optional<String> labelValue(String value) {
        if (value.length() > LABEL_LENGTH) {
            return Optional.of(tooLong(value, LABEL_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            return Optional.of(quoted(value) + " is not a valid label value (letters, digits, '-', '_' and '.', "
                    + "beginning and ending with a letter or digit)");
        }
        return Optional.empty();
    }

    private static String tooLong(String value, int limit) {
        return quoted(value) + " is " + value.length() + " characters long; at most " + limit + " are allowed";
    }

    private static String quoted(String value) {
        return "'" + Texts.shortened(value) + "'";
    }
}
