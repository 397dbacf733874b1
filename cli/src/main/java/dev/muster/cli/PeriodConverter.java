package dev.muster.cli;

import dev.muster.engine.api.GoDuration;
import java.time.Duration;
import picocli.CommandLine;

/** Reads a positive period in Go's syntax, as Volcano's and Kubernetes' flags take it: {@code 500ms}, {@code 1s}, {@code 1m30s}. */
final class PeriodConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String text) {
        Duration period;
        try {
            period = GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
        if (period.isNegative() || period.isZero()) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a positive period such as 500ms, 1s or 1m30s");
        }
        return period;
    }
}
