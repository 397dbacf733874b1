package dev.muster.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * kube-apiserver's check of a new object's name (apimachinery {@code util/validation}, each kind's
 * {@code ValidateNameFunc}), with its words: a Namespace's name is a DNS-1123 label, a Service's a
 * DNS-1035 label, RBAC's roles and bindings any path segment (so {@code system:controller:...}), and
 * every other kind's, custom resources' included, a DNS-1123 subdomain. A name the mock would store
 * as it came ({@code Not_A_Name}) is refused with 422 Invalid, as kube-apiserver refuses it.
 */
final class ObjectNames {
    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS_1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS_1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final int SUBDOMAIN_LENGTH = 253;
    private static final int LABEL_LENGTH = 63;
    private static final String SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
            + "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final String LABEL_RULE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
            + "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String DNS_1035_RULE = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
            + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
            + "is '[a-z]([-a-z0-9]*[a-z0-9])?')";

    private ObjectNames() {}

    /** 422 Invalid when {@code name} is not a name kube-apiserver takes for {@code kind}; empty for a valid or absent one. */
    static Optional<MockResponse> refusal(ResourceKinds.Kind kind, String name) {
        if (name.isEmpty()) {
            // no name and no generateName (a generated name is checked here too): the mock's answer, normalised by MockErrors
            return Optional.empty();
        }
        List<String> problems = problems(kind, name);
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        int slash = kind.apiVersion().indexOf('/');
        String group = slash < 0 ? "" : kind.apiVersion().substring(0, slash);
        List<String> causes = problems.stream().map(problem -> "Invalid value: " + Statuses.quoted(name) + ": " + problem).toList();
        return Optional.of(Statuses.invalidField(kind.kind(), group, name, "metadata.name", "FieldValueInvalid", causes));
    }

    private static List<String> problems(ResourceKinds.Kind kind, String name) {
        List<String> problems = new ArrayList<>();
        if (kind.apiVersion().startsWith("rbac.authorization.k8s.io/")) {
            pathSegment(name).ifPresent(problems::add);
        } else if (kind.kind().equals("Namespace") && kind.apiVersion().equals("v1")) {
            checked(name, LABEL_LENGTH, DNS_1123_LABEL, LABEL_RULE, problems);
        } else if (kind.kind().equals("Service") && kind.apiVersion().equals("v1")) {
            checked(name, LABEL_LENGTH, DNS_1035_LABEL, DNS_1035_RULE, problems);
        } else {
            checked(name, SUBDOMAIN_LENGTH, DNS_1123_SUBDOMAIN, SUBDOMAIN_RULE, problems);
        }
        return problems;
    }

    private static void checked(String name, int length, Pattern pattern, String rule, List<String> problems) {
        if (name.length() > length) {
            problems.add("must be no more than " + length + " characters");
        }
        if (!pattern.matcher(name).matches()) {
            problems.add(rule);
        }
    }

    /** apimachinery's {@code path.IsValidPathSegmentName}. */
    private static Optional<String> pathSegment(String name) {
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("may not be '" + name + "'");
        }
        for (String illegal : List.of("/", "%")) {
            if (name.contains(illegal)) {
                return Optional.of("may not contain '" + illegal + "'");
            }
        }
        return Optional.empty();
    }
}
