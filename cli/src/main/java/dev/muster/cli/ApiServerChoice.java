package dev.muster.cli;

import java.util.Locale;
import picocli.CommandLine;

/** Which API server {@code muster up} runs its nodes, kubelet, scheduler and controllers on. */
enum ApiServerChoice {
    /** The embedded server, in this JVM, in memory. */
    EMBEDDED,
    /** A real kube-apiserver and etcd, installed by {@code peers/install}, on loopback ports of their own. */
    REAL;

    /** Reads {@code embedded} or {@code real}; anything else is an error naming both. */
    static final class Converter implements CommandLine.ITypeConverter<ApiServerChoice> {
        @Override
        public ApiServerChoice convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "embedded" -> EMBEDDED;
                case "real" -> REAL;
                default -> throw new CommandLine.TypeConversionException("--apiserver must be embedded or real: '" + value + "'");
            };
        }
    }
}
