package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;

/** The tokens of a label selector, scanned as kube-apiserver's selector lexer scans them. */
final class LabelSelectorLexer {
    /** Token kinds; {@code ERROR} carries the lexer's message as its literal. */
    enum Token {
        ERROR,
        END,
        CLOSE_PARENTHESIS,
        COMMA,
        DOES_NOT_EXIST,
        DOUBLE_EQUALS,
        EQUALS,
        GREATER_THAN,
        IDENTIFIER,
        IN,
        LESS_THAN,
        NOT_EQUALS,
        NOT_IN,
        OPEN_PARENTHESIS
    }

    /** One scanned token and its text. */
    record Item(Token token, String literal) {
        Item {
            requireNonNull(token, "token is null");
            requireNonNull(literal, "literal is null");
        }

        /** Where a value is expected, {@code in} and {@code notin} are plain identifiers. */
        Item asValue() {
            return token == Token.IN || token == Token.NOT_IN ? new Item(Token.IDENTIFIER, literal) : this;
        }
    }

    private static final ImmutableMap<String, Token> KEYWORDS = ImmutableMap.<String, Token>builder()
            .put(")", Token.CLOSE_PARENTHESIS)
            .put(",", Token.COMMA)
            .put("!", Token.DOES_NOT_EXIST)
            .put("==", Token.DOUBLE_EQUALS)
            .put("=", Token.EQUALS)
            .put(">", Token.GREATER_THAN)
            .put("in", Token.IN)
            .put("<", Token.LESS_THAN)
            .put("!=", Token.NOT_EQUALS)
            .put("notin", Token.NOT_IN)
            .put("(", Token.OPEN_PARENTHESIS)
            .buildOrThrow();

    private final String text;
    private int position;

    private LabelSelectorLexer(String text) {
        this.text = text;
    }

    /** Every token of the selector, the last one {@link Token#END}. */
    static List<Item> scan(String selector) {
        LabelSelectorLexer lexer = new LabelSelectorLexer(selector);
        List<Item> items = new ArrayList<>();
        while (true) {
            Item item = lexer.next();
            items.add(item);
            if (item.token() == Token.END) {
                return items;
            }
        }
    }

    private Item next() {
        while (position < text.length() && whitespace(text.charAt(position))) {
            position++;
        }
        if (position >= text.length()) {
            return new Item(Token.END, "");
        }
        return special(text.charAt(position)) ? symbol() : identifierOrKeyword();
    }

    private Item identifierOrKeyword() {
        int start = position;
        while (position < text.length() && !special(text.charAt(position)) && !whitespace(text.charAt(position))) {
            position++;
        }
        String word = text.substring(start, position);
        Token keyword = KEYWORDS.get(word);
        return new Item(keyword == null ? Token.IDENTIFIER : keyword, word);
    }

    /** The longest run of special symbols that is an operator, as the lexer reads {@code !=} before {@code !}. */
    private Item symbol() {
        StringBuilder buffer = new StringBuilder();
        Item last = null;
        while (position < text.length() && special(text.charAt(position))) {
            buffer.append(text.charAt(position));
            position++;
            Token token = KEYWORDS.get(buffer.toString());
            if (token != null) {
                last = new Item(token, buffer.toString());
            } else if (last != null) {
                position--;
                break;
            }
        }
        return last == null ? new Item(Token.ERROR, "error expected: keyword found '" + buffer + "'") : last;
    }

    private static boolean whitespace(char character) {
        return character == ' ' || character == '\t' || character == '\r' || character == '\n';
    }

    private static boolean special(char character) {
        return switch (character) {
            case '=', '!', '(', ')', ',', '>', '<' -> true;
            default -> false;
        };
    }
}
