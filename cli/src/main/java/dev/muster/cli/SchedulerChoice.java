package dev.muster.cli;

import java.util.Locale;
import picocli.CommandLine;

/** What schedules the pods of {@code muster up}'s cluster. */
enum SchedulerChoice {
    /** Muster, on the names {@code muster} and {@code volcano}. */
    MUSTER,
    /** Nothing: another scheduler is to be tried against the embedded cluster. */
    NONE;

    /** Reads {@code muster} or {@code none}; anything else is an error naming both. */
    static final class Converter implements CommandLine.ITypeConverter<SchedulerChoice> {
        @Override
        public SchedulerChoice convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "muster" -> MUSTER;
                case "none" -> NONE;
                default -> throw new CommandLine.TypeConversionException("--scheduler must be muster or none: '" + value + "'");
            };
        }
    }
}
