package dev.muster.embedded;

import com.google.common.collect.ImmutableSet;
import java.util.LinkedHashSet;
import java.util.Set;

/** The values after a label selector's operator, parsed as kube-apiserver's selector parser reads them. */
final class LabelSelectorValues {
    private LabelSelectorValues() {}

    /** One value after {@code =}, {@code ==}, {@code !=}, {@code >} or {@code <}; none before a comma or the end is the empty value. */
    static ImmutableSet<String> exact(LabelSelector.Cursor cursor) {
        LabelSelectorLexer.Token next = cursor.lookahead(true).token();
        if (next == LabelSelectorLexer.Token.END || next == LabelSelectorLexer.Token.COMMA) {
            return ImmutableSet.of("");
        }
        LabelSelectorLexer.Item value = cursor.consume(true);
        if (value.token() != LabelSelectorLexer.Token.IDENTIFIER) {
            throw new BadSelectorException("found '" + value.literal() + "', expected: identifier");
        }
        return ImmutableSet.of(value.literal());
    }

    /** A parenthesised, comma-separated set after {@code in} or {@code notin}; empty entries are the empty value. */
    static ImmutableSet<String> set(LabelSelector.Cursor cursor) {
        LabelSelectorLexer.Item open = cursor.consume(true);
        if (open.token() != LabelSelectorLexer.Token.OPEN_PARENTHESIS) {
            throw new BadSelectorException("found '" + open.literal() + "' expected: '('");
        }
        LabelSelectorLexer.Item first = cursor.lookahead(true);
        switch (first.token()) {
            case IDENTIFIER, COMMA -> {
                ImmutableSet<String> values = identifiers(cursor);
                if (cursor.consume(true).token() != LabelSelectorLexer.Token.CLOSE_PARENTHESIS) {
                    throw new BadSelectorException("found '" + first.literal() + "', expected: ')'");
                }
                return values;
            }
            case CLOSE_PARENTHESIS -> {
                cursor.consume(true);
                return ImmutableSet.of("");
            }
            default -> throw new BadSelectorException("found '" + first.literal() + "', expected: ',', ')' or identifier");
        }
    }

    private static ImmutableSet<String> identifiers(LabelSelector.Cursor cursor) {
        Set<String> values = new LinkedHashSet<>();
        while (true) {
            LabelSelectorLexer.Item item = cursor.consume(true);
            switch (item.token()) {
                case IDENTIFIER -> {
                    values.add(item.literal());
                    LabelSelectorLexer.Item next = cursor.lookahead(true);
                    if (next.token() == LabelSelectorLexer.Token.CLOSE_PARENTHESIS) {
                        return ImmutableSet.copyOf(values);
                    }
                    if (next.token() != LabelSelectorLexer.Token.COMMA) {
                        throw new BadSelectorException("found '" + next.literal() + "', expected: ',' or ')'");
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add("");
                    }
                    LabelSelectorLexer.Token next = cursor.lookahead(true).token();
                    if (next == LabelSelectorLexer.Token.CLOSE_PARENTHESIS) {
                        values.add("");
                        return ImmutableSet.copyOf(values);
                    }
                    if (next == LabelSelectorLexer.Token.COMMA) {
                        values.add("");
                    }
                }
                default -> throw new BadSelectorException("found '" + item.literal() + "', expected: ',', or identifier");
            }
        }
    }
}
