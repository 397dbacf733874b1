package dev.muster.engine.yaml;

import com.google.common.collect.ImmutableList;

/**
 * Splits a YAML stream's bytes into documents at separator lines ({@code ---} alone or followed by
 * blanks, a comment or content), before anything is decoded or parsed, as Kubernetes' {@code YAMLReader}
 * does. The separator line stays with its document (YAML allows {@code --- |} and keeps line numbers
 * true). Text before the first separator is a document only when it holds more than blank lines,
 * comments and directives; every document after a separator counts, empty or not, as YAML counts them.
 */
final class DocumentSplitter {
    private DocumentSplitter() {}

    /** The bytes {@code [from, to)} of document {@code index}, which starts on line {@code firstLine} (from 1). */
    record Chunk(int index, int firstLine, int from, int to) {}

    static ImmutableList<Chunk> split(byte[] bytes) {
        ImmutableList.Builder<Chunk> chunks = ImmutableList.builder();
        int start = hasByteOrderMark(bytes) ? 3 : 0;
        int chunkStart = start;
        int chunkLine = 1;
        int index = 0;
        boolean separated = false;
        int line = 1;
        for (int lineStart = start; lineStart < bytes.length; line++) {
            int lineEnd = lineEnd(bytes, lineStart);
            if (isSeparator(bytes, lineStart, lineEnd) && lineStart > chunkStart) {
                if (separated || hasContent(bytes, chunkStart, lineStart)) {
                    chunks.add(new Chunk(index++, chunkLine, chunkStart, lineStart));
                }
                chunkStart = lineStart;
                chunkLine = line;
            }
            if (isSeparator(bytes, lineStart, lineEnd)) {
                separated = true;
            }
            lineStart = lineEnd + 1;
        }
        if (chunkStart < bytes.length && (separated || hasContent(bytes, chunkStart, bytes.length))) {
            chunks.add(new Chunk(index, chunkLine, chunkStart, bytes.length));
        }
        return chunks.build();
    }

    private static boolean hasByteOrderMark(byte[] bytes) {
        return bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
    }

    private static int lineEnd(byte[] bytes, int from) {
        for (int index = from; index < bytes.length; index++) {
            if (bytes[index] == '\n') {
                return index;
            }
        }
        return bytes.length;
    }

    private static boolean isSeparator(byte[] bytes, int from, int to) {
        if (to - from < 3 || bytes[from] != '-' || bytes[from + 1] != '-' || bytes[from + 2] != '-') {
            return false;
        }
        return to - from == 3 || bytes[from + 3] == ' ' || bytes[from + 3] == '\t' || bytes[from + 3] == '\r';
    }

    /** Whether a line other than blanks, comments and directives ({@code %YAML 1.1}) is in {@code [from, to)}. */
    private static boolean hasContent(byte[] bytes, int from, int to) {
        boolean lineStart = true;
        boolean skipLine = false;
        for (int index = from; index < to; index++) {
            byte current = bytes[index];
            if (current == '\n') {
                lineStart = true;
                skipLine = false;
                continue;
            }
            if (skipLine || current == ' ' || current == '\t' || current == '\r') {
                continue;
            }
            if (lineStart && (current == '#' || current == '%')) {
                skipLine = true;
                continue;
            }
            if (current == '#') {
                skipLine = true;
                continue;
            }
            return true;
        }
        return false;
    }
}
