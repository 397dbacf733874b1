package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

import java.util.Arrays;
import java.util.Optional;

/**
 * Parses a DAG task's {@code depends} (Argo's {@code docs/enhanced-depends-logic.md}): operands are task
 * names, optionally with a result ({@code A}, {@code A.Failed}); {@code !} binds tighter than
 * {@code &&}, which binds tighter than {@code ||}; parentheses group. Task names are Argo's
 * {@code [a-zA-Z0-9][-a-zA-Z0-9]*}, so {@code task-1} is one name.
 *
 * <p>Why a parser of our own: the grammar is these five productions, and a parser generator would be a
 * build step and a dependency for them. Argo itself rewrites the text and hands it to an expression
 * library, so there is no grammar of Argo's to reuse.
 */
public final class DependsParser {
    /** Unparsable text: the message names what was expected, where (a 1-based column), and what was found. */
    public static final class SyntaxException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int column;

        SyntaxException(String message, int column) {
            super(message + " at column " + column);
            this.column = column;
        }

        public int column() {
            return column;
        }
    }

    private final String text;
    private int position;

    private DependsParser(String text) {
        this.text = text;
    }

    /**
     * The expression.
     *
     * @throws SyntaxException when the text is not an expression of Argo's grammar
     */
    public static DependsExpression parse(String text) {
        requireNonNull(text, "text is null");
        DependsParser parser = new DependsParser(text);
        DependsExpression expression = parser.or();
        parser.skipSpace();
        if (parser.position < text.length()) {
            throw parser.error(text.charAt(parser.position) == ')' ? "')' without '('" : "expected '&&' or '||'");
        }
        return expression;
    }

    private DependsExpression or() {
        DependsExpression left = and();
        while (consume("||")) {
            left = new DependsExpression.Or(left, and());
        }
        return left;
    }

    private DependsExpression and() {
        DependsExpression left = unary();
        while (consume("&&")) {
            left = new DependsExpression.And(left, unary());
        }
        return left;
    }

    private DependsExpression unary() {
        if (consume("!")) {
            return new DependsExpression.Not(unary());
        }
        if (consume("(")) {
            int open = position;
            DependsExpression inner = or();
            if (!consume(")")) {
                throw error("expected ')' to close the '(' at column " + open);
            }
            return inner;
        }
        return operand();
    }

    private DependsExpression operand() {
        skipSpace();
        int start = position;
        if (position >= text.length() || !isNameStart(text.charAt(position))) {
            throw error("expected a task name, '!' or '('");
        }
        while (position < text.length() && (isNameStart(text.charAt(position)) || text.charAt(position) == '-')) {
            position++;
        }
        String task = text.substring(start, position);
        if (position >= text.length() || text.charAt(position) != '.') {
            return new DependsExpression.Result(task, Optional.empty());
        }
        position++;
        int resultStart = position;
        while (position < text.length() && Character.isLetter(text.charAt(position))) {
            position++;
        }
        String name = text.substring(resultStart, position);
        Optional<TaskResult> result = TaskResult.fromArgo(name);
        if (result.isEmpty()) {
            throw new SyntaxException("task '" + task + "': unknown result '" + name + "' (known: "
                    + Arrays.stream(TaskResult.values()).map(TaskResult::argoName).collect(joining(", ")) + ")", resultStart + 1);
        }
        return new DependsExpression.Result(task, result);
    }

    private boolean consume(String token) {
        skipSpace();
        if (text.startsWith(token, position)) {
            position += token.length();
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
            position++;
        }
    }

    private SyntaxException error(String expected) {
        String found = position >= text.length() ? "the end" : "'" + text.charAt(position) + "'";
        return new SyntaxException(expected + ", found " + found, position + 1);
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
