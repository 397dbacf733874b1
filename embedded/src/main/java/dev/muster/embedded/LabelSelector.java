package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A label selector, parsed and matched as kube-apiserver's {@code labels.Parse} does: requirements
 * joined by commas, each {@code key}, {@code !key}, {@code key=v}, {@code key==v}, {@code key!=v},
 * {@code key in (a,b)}, {@code key notin (a,b)}, {@code key>n} or {@code key<n}. A {@code !=} or
 * {@code notin} requirement matches objects without the label; {@code in} and {@code =} need it.
 * (The mock read {@code in} as matching everything, so {@code delete -l 'app in (x)'} emptied a namespace.)
 * A malformed selector throws {@link BadSelectorException} with the parser's message.
 */
record LabelSelector(ImmutableList<Requirement> requirements) {
    static final LabelSelector EVERYTHING = new LabelSelector(ImmutableList.of());
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String NAME_RULE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
            + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
            + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    /** The operators of a requirement. */
    enum Operator {
        EXISTS,
        DOES_NOT_EXIST,
        EQUALS,
        NOT_EQUALS,
        IN,
        NOT_IN,
        GREATER_THAN,
        LESS_THAN
    }

    /** One requirement on one label key. */
    record Requirement(String key, Operator operator, ImmutableSet<String> values) {
        Requirement {
            requireNonNull(key, "key is null");
            requireNonNull(operator, "operator is null");
            values = ImmutableSet.copyOf(values);
        }

        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case EXISTS -> value != null;
                case DOES_NOT_EXIST -> value == null;
                case EQUALS, IN -> value != null && values.contains(value);
                case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
                case GREATER_THAN, LESS_THAN -> value != null && compares(value);
            };
        }

        private boolean compares(String value) {
            try {
                long actual = Long.parseLong(value);
                long bound = Long.parseLong(values.iterator().next());
                return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    LabelSelector {
        requirements = ImmutableList.copyOf(requirements);
    }

    boolean isEmpty() {
        return requirements.isEmpty();
    }

    boolean matches(Map<String, String> labels) {
        for (Requirement requirement : requirements) {
            if (!requirement.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /**
     * False when an object stored as {@code json} cannot match: a requirement needs a label whose key
     * does not occur in the text at all. A watch with a selector checks every change of its
     * resource; most changes are of objects without the label (a controller's pods among
     * everyone's), and this spares reading them. A label key is never escaped in JSON: the
     * characters JSON escapes are not allowed in keys.
     */
    boolean mayMatch(String json) {
        for (Requirement requirement : requirements) {
            boolean needsLabel = switch (requirement.operator()) {
                case EXISTS, EQUALS, IN, GREATER_THAN, LESS_THAN -> true;
                case DOES_NOT_EXIST, NOT_EQUALS, NOT_IN -> false;
            };
            if (needsLabel && !json.contains("\"" + requirement.key() + "\"")) {
                return false;
            }
        }
        return true;
    }

    /** Parses a selector as {@code labels.Parse} does; the empty string selects everything. */
    static LabelSelector parse(String selector) {
        List<LabelSelectorLexer.Item> items = LabelSelectorLexer.scan(selector);
        List<Requirement> requirements = new ArrayList<>();
        Cursor cursor = new Cursor(items);
        while (true) {
            LabelSelectorLexer.Item next = cursor.lookahead(true);
            switch (next.token()) {
                case IDENTIFIER, DOES_NOT_EXIST -> {
                    requirements.add(requirement(cursor));
                    LabelSelectorLexer.Item after = cursor.consume(true);
                    if (after.token() == LabelSelectorLexer.Token.END) {
                        return new LabelSelector(ImmutableList.copyOf(requirements));
                    }
                    if (after.token() != LabelSelectorLexer.Token.COMMA) {
                        throw new BadSelectorException("found '" + after.literal() + "', expected: ',' or 'end of string'");
                    }
                    LabelSelectorLexer.Item following = cursor.lookahead(true);
                    if (following.token() != LabelSelectorLexer.Token.IDENTIFIER
                            && following.token() != LabelSelectorLexer.Token.DOES_NOT_EXIST) {
                        throw new BadSelectorException("found '" + following.literal() + "', expected: identifier after ','");
                    }
                }
                case END -> {
                    return new LabelSelector(ImmutableList.copyOf(requirements));
                }
                default -> throw new BadSelectorException("found '" + next.literal() + "', expected: !, identifier, or 'end of string'");
            }
        }
    }

    private static Requirement requirement(Cursor cursor) {
        try {
            return requirementOrThrow(cursor);
        } catch (BadSelectorException e) {
            throw new BadSelectorException("unable to parse requirement: " + e.getMessage());
        }
    }

    private static Requirement requirementOrThrow(Cursor cursor) {
        LabelSelectorLexer.Item key = cursor.consume(true);
        boolean negated = key.token() == LabelSelectorLexer.Token.DOES_NOT_EXIST;
        if (negated) {
            key = cursor.consume(true);
        }
        if (key.token() != LabelSelectorLexer.Token.IDENTIFIER) {
            throw new BadSelectorException("found '" + key.literal() + "', expected: identifier");
        }
        validateKey(key.literal());
        LabelSelectorLexer.Token after = cursor.lookahead(true).token();
        if (negated || after == LabelSelectorLexer.Token.END || after == LabelSelectorLexer.Token.COMMA) {
            return new Requirement(key.literal(), negated ? Operator.DOES_NOT_EXIST : Operator.EXISTS, ImmutableSet.of());
        }
        LabelSelectorLexer.Item operator = cursor.consume(false);
        Operator parsed = switch (operator.token()) {
            case IN -> Operator.IN;
            case NOT_IN -> Operator.NOT_IN;
            case EQUALS, DOUBLE_EQUALS -> Operator.EQUALS;
            case NOT_EQUALS -> Operator.NOT_EQUALS;
            case GREATER_THAN -> Operator.GREATER_THAN;
            case LESS_THAN -> Operator.LESS_THAN;
            default -> throw new BadSelectorException("found '" + operator.literal() + "', expected: in, notin, =, ==, !=, gt, lt");
        };
        ImmutableSet<String> values = parsed == Operator.IN || parsed == Operator.NOT_IN ? LabelSelectorValues.set(cursor)
                : LabelSelectorValues.exact(cursor);
        if ((parsed == Operator.GREATER_THAN || parsed == Operator.LESS_THAN) && !integer(values.iterator().next())) {
            throw new BadSelectorException("values[0]: Invalid value: \"" + values.iterator().next()
                    + "\": for 'Gt', 'Lt' operators, the value must be an integer");
        }
        for (String value : values) {
            if (value.length() > 63 || (!value.isEmpty() && !NAME.matcher(value).matches())) {
                throw new BadSelectorException("values[0][" + key.literal() + "]: Invalid value: \"" + value + "\": a valid label "
                        + "must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                        + "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                        + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
            }
        }
        return new Requirement(key.literal(), parsed, values);
    }

    private static boolean integer(String value) {
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A qualified name: an optional DNS subdomain prefix and a slash, then a name of at most 63 characters. */
    private static void validateKey(String key) {
        int slash = key.lastIndexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        String prefix = slash < 0 ? "" : key.substring(0, slash);
        boolean valid = !name.isEmpty() && name.length() <= 63 && NAME.matcher(name).matches()
                && (slash < 0 || (!prefix.isEmpty() && prefix.length() <= 253 && SUBDOMAIN.matcher(prefix).matches()));
        if (!valid) {
            throw new BadSelectorException(": Invalid value: \"" + key + "\": name part " + NAME_RULE);
        }
    }

    /** The parser's position in the scanned items. */
    static final class Cursor {
        private final List<LabelSelectorLexer.Item> items;
        private int position;

        Cursor(List<LabelSelectorLexer.Item> items) {
            this.items = items;
        }

        /** The current item; in the context of values, {@code in} and {@code notin} are identifiers. */
        LabelSelectorLexer.Item lookahead(boolean values) {
            return values ? items.get(position).asValue() : items.get(position);
        }

        LabelSelectorLexer.Item consume(boolean values) {
            LabelSelectorLexer.Item item = lookahead(values);
            position++;
            return item;
        }
    }
}
