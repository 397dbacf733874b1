package dev.muster.engine.yaml;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Strict UTF-8 decoding that says where the first bad byte is. Kubernetes' reader refuses text that is
 * not UTF-8; {@code Files.readString} would only say {@code MalformedInputException: Input length = 1}.
 */
final class Utf8 {
    private Utf8() {}

    /** The text, or the bad byte's position (lines counted from {@code firstLine}). */
    static Decoded decode(byte[] bytes, int from, int to, int firstLine) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, from, to - from);
        CharBuffer out = CharBuffer.allocate(to - from);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int at = in.position();
            int line = firstLine;
            int lineStart = from;
            for (int index = from; index < at; index++) {
                if (bytes[index] == '\n') {
                    line++;
                    lineStart = index + 1;
                }
            }
            String message = String.format(Locale.ROOT, "not UTF-8: byte 0x%02X does not begin a character; the document is ignored",
                    bytes[at] & 0xff);
            return new Decoded(Optional.empty(), Optional.of(new ReadError(line, at - lineStart + 1, message)));
        }
        out.flip();
        return new Decoded(Optional.of(out.toString()), Optional.empty());
    }

    /** The bytes as text with bad bytes replaced, for scanning a broken document's header. */
    static String lenient(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    record Decoded(Optional<String> text, Optional<ReadError> error) {}
}
