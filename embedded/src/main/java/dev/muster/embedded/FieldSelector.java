package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A field selector, parsed as kube-apiserver's {@code fields.ParseSelector} parses one: terms joined
 * by unescaped commas, each {@code field=value}, {@code field==value} or {@code field!=value}, with
 * backslash escapes in values. A field the object does not have reads as the empty value. A term
 * that names a field the kind does not support is refused by {@link FieldLabels}.
 */
record FieldSelector(ImmutableList<Term> terms) {
    static final FieldSelector EVERYTHING = new FieldSelector(ImmutableList.of());

    /** One term: the field must (or, {@code negated}, must not) have the value. */
    record Term(String field, String value, boolean negated) {
        Term {
            requireNonNull(field, "field is null");
            requireNonNull(value, "value is null");
        }
    }

    FieldSelector {
        terms = ImmutableList.copyOf(terms);
    }

    boolean isEmpty() {
        return terms.isEmpty();
    }

    /** Whether an object whose fields read as {@code fields} (null for a field it lacks) is selected. */
    boolean matches(Function<String, String> fields) {
        for (Term term : terms) {
            String actual = fields.apply(term.field());
            boolean equal = term.value().equals(actual == null ? "" : actual);
            if (equal == term.negated()) {
                return false;
            }
        }
        return true;
    }

    static FieldSelector parse(String selector) {
        List<Term> terms = new ArrayList<>();
        for (String part : split(selector)) {
            if (part.isEmpty()) {
                continue;
            }
            terms.add(term(selector, part));
        }
        return new FieldSelector(ImmutableList.copyOf(terms));
    }

    private static Term term(String selector, String part) {
        for (int index = 0; index < part.length(); index++) {
            for (String operator : List.of("!=", "==", "=")) {
                if (part.startsWith(operator, index)) {
                    String value = unescape(part.substring(index + operator.length()));
                    return new Term(part.substring(0, index), value, operator.equals("!="));
                }
            }
        }
        throw new BadSelectorException("invalid selector: '" + selector + "'; can't understand '" + part + "'");
    }

    /** Splits on commas that no backslash escapes, keeping the escapes for {@link #unescape}. */
    private static List<String> split(String selector) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean escaped = false;
        for (char character : selector.toCharArray()) {
            if (escaped) {
                part.append(character);
                escaped = false;
            } else if (character == '\\') {
                part.append(character);
                escaped = true;
            } else if (character == ',') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(character);
            }
        }
        parts.add(part.toString());
        return parts;
    }

    private static String unescape(String value) {
        StringBuilder unescaped = new StringBuilder();
        boolean escaped = false;
        for (char character : value.toCharArray()) {
            if (escaped) {
                if (character != '\\' && character != ',' && character != '=') {
                    throw new BadSelectorException("invalid field selector: invalid escape sequence: \\" + character);
                }
                unescaped.append(character);
                escaped = false;
            } else if (character == '\\') {
                escaped = true;
            } else if (character == ',' || character == '=') {
                // Go prints the rune as its code point
                throw new BadSelectorException("invalid field selector: unescaped character in value: " + (int) character);
            } else {
                unescaped.append(character);
            }
        }
        if (escaped) {
            throw new BadSelectorException("invalid field selector: invalid escape sequence: \\");
        }
        return unescaped.toString();
    }
}
