package dev.muster.engine.yaml;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Why a document (or part of one) could not be read.
 *
 * @param line from 1, in the whole file; 0 when not known
 * @param column from 1; 0 when not known
 * @param message what is wrong, in our words
 */
public record ReadError(int line, int column, String message) {
    public ReadError {
        checkArgument(line >= 0 && column >= 0, "line and column are not negative: %s:%s", line, column);
        requireNonNull(message, "message is null");
    }

    /** {@code line 3, column 7: message}, or the message alone when the position is not known. */
    public String describe() {
        if (line == 0) {
            return message;
        }
        return column == 0 ? "line " + line + ": " + message : "line " + line + ", column " + column + ": " + message;
    }
}
