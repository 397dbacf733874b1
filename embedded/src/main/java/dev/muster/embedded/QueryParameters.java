package dev.muster.embedded;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableListMultimap;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** The decoded query parameters of a request path, in the order they came. */
final class QueryParameters {
    private static final Splitter AMPERSAND = Splitter.on('&').omitEmptyStrings();

    private final ImmutableListMultimap<String, String> parameters;

    private QueryParameters(ImmutableListMultimap<String, String> parameters) {
        this.parameters = parameters;
    }

    /** The parameters after the path's {@code ?}; none if it has no query. */
    static QueryParameters of(String path) {
        int query = path.indexOf('?');
        ImmutableListMultimap.Builder<String, String> builder = ImmutableListMultimap.builder();
        if (query >= 0) {
            for (String parameter : AMPERSAND.split(path.substring(query + 1))) {
                int equals = parameter.indexOf('=');
                String name = equals < 0 ? parameter : parameter.substring(0, equals);
                String value = equals < 0 ? "" : parameter.substring(equals + 1);
                builder.put(decode(name), decode(value));
            }
        }
        return new QueryParameters(builder.build());
    }

    /** The parameter's first value, as Go's {@code url.Values.Get} reads it. */
    Optional<String> get(String name) {
        List<String> values = parameters.get(name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * A boolean parameter as kube-apiserver reads one into its options (apimachinery's conversion of a
     * query value to a bool, not Go's {@code strconv.ParseBool}): absent is false, {@code 0} and
     * {@code false} in any case are false, and every other value, the empty one of {@code ?watch}
     * included, is true.
     */
    boolean flag(String name) {
        return get(name).map(QueryParameters::parseBool).orElse(false);
    }

    static boolean parseBool(String value) {
        return !(value.equals("0") || value.equalsIgnoreCase("false"));
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }
}
