package dev.muster.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads a period as Volcano's flags write it: {@code 500ms}, {@code 1s}, {@code 2m}. */
final class PeriodConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern PERIOD = Pattern.compile("(\\d+)(ms|s|m)");

    @Override
    public Duration convert(String text) {
        Matcher matcher = PERIOD.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a positive period such as 500ms, 1s or 2m");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }
}
