package dev.muster.engine.yaml;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the kind and name of a document that could not be parsed by looking at its text, so a report
 * still names the object: {@code kind:} at the start of a line, {@code name:} and {@code namespace:}
 * in the lines (or the flow mapping) after {@code metadata:}; JSON's {@code "kind": "..."} alike.
 */
final class HeaderScan {
    private static final Pattern KIND = Pattern.compile("(?m)(?:^|[{,]\\s*)\"?kind\"?\\s*:\\s*[\"']?([A-Za-z][A-Za-z0-9]{0,62})");
    private static final Pattern METADATA = Pattern.compile("(?m)(?:^\\s*|[{,]\\s*)\"?metadata\"?\\s*:");
    private static final Pattern NAME = Pattern.compile("\"?\\bname\"?\\s*:\\s*[\"']?([a-z0-9][-a-z0-9.]{0,252})");
    private static final Pattern NAMESPACE = Pattern.compile("\"?\\bnamespace\"?\\s*:\\s*[\"']?([a-z0-9][-a-z0-9]{0,62})");
    /** Enough of a document to find its header; a huge broken document is not scanned to its end. */
    private static final int SCANNED = 4096;

    private HeaderScan() {}

    static YamlDocument.Header scan(String text) {
        String head = text.length() > SCANNED ? text.substring(0, SCANNED) : text;
        Matcher kind = KIND.matcher(head);
        Matcher metadata = METADATA.matcher(head);
        if (!metadata.find()) {
            return new YamlDocument.Header(kind.find() ? kind.group(1) : "", "", "");
        }
        String after = head.substring(metadata.end());
        Matcher name = NAME.matcher(after);
        Matcher namespace = NAMESPACE.matcher(after);
        return new YamlDocument.Header(kind.find() ? kind.group(1) : "", namespace.find() ? namespace.group(1) : "",
                name.find() ? name.group(1) : "");
    }
}
