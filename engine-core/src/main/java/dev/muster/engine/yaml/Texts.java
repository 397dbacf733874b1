package dev.muster.engine.yaml;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Values quoted in messages: a huge value is cut, so one bad field does not flood the report. */
public final class Texts {
    /** The longest value quoted in full. */
    public static final int QUOTED = 64;

    private static final Pattern SHORTENED = Pattern.compile("(?s).{" + QUOTED + "}\\.\\.\\. \\([0-9]+ characters\\)");
    private static final Pattern LONG_QUOTE = Pattern.compile("'([^']{" + (QUOTED + 1) + ",})'");

    private Texts() {}

    /** The message with every quoted value longer than {@value #QUOTED} characters {@linkplain #shortened shortened}. */
    public static String shortenedQuotes(String message) {
        if (message.length() <= 2 * QUOTED) {
            return message;
        }
        Matcher quote = LONG_QUOTE.matcher(message);
        StringBuilder result = new StringBuilder();
        while (quote.find()) {
            quote.appendReplacement(result, Matcher.quoteReplacement("'" + shortened(quote.group(1)) + "'"));
        }
        quote.appendTail(result);
        return result.length() > 16 * QUOTED ? shortened(result.toString()) : result.toString();
    }

    /** The text, or its first {@value #QUOTED} characters and its length. */
    public static String shortened(String text) {
        if (text.length() <= QUOTED || SHORTENED.matcher(text).matches()) {
            return text;
        }
        return text.substring(0, QUOTED) + "... (" + text.length() + " characters)";
    }
}
