package dev.muster.engine.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cases of Go's own time.ParseDuration and Duration.String tables, read in Go's documentation and tests. */
class GoDurationTest {
    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("0", Duration.ZERO),
                Arguments.of("5s", Duration.ofSeconds(5)),
                Arguments.of("30s", Duration.ofSeconds(30)),
                Arguments.of("1478s", Duration.ofSeconds(1478)),
                Arguments.of("-5s", Duration.ofSeconds(-5)),
                Arguments.of("+5s", Duration.ofSeconds(5)),
                Arguments.of("-0", Duration.ZERO),
                Arguments.of("5.0s", Duration.ofSeconds(5)),
                Arguments.of("5.6s", Duration.ofMillis(5600)),
                Arguments.of("5.s", Duration.ofSeconds(5)),
                Arguments.of(".5s", Duration.ofMillis(500)),
                Arguments.of("1.004s", Duration.ofMillis(1004)),
                Arguments.of("100.00100s", Duration.ofMillis(100_001)),
                Arguments.of("10ns", Duration.ofNanos(10)),
                Arguments.of("11us", Duration.ofNanos(11_000)),
                Arguments.of("12\u00b5s", Duration.ofNanos(12_000)),
                Arguments.of("12\u03bcs", Duration.ofNanos(12_000)),
                Arguments.of("13ms", Duration.ofMillis(13)),
                Arguments.of("14s", Duration.ofSeconds(14)),
                Arguments.of("15m", Duration.ofMinutes(15)),
                Arguments.of("16h", Duration.ofHours(16)),
                Arguments.of("3h30m", Duration.ofMinutes(210)),
                Arguments.of("1m30s", Duration.ofSeconds(90)),
                Arguments.of("10.5s4m", Duration.ofMillis(250_500)),
                Arguments.of("-2m3.4s", Duration.ofMillis(-123_400)),
                Arguments.of("1h2m3s4ms5us6ns", Duration.ofNanos(3_723_004_005_006L)),
                Arguments.of("39h9m14.425s", Duration.ofMillis(140_954_425)),
                Arguments.of("52763797000ns", Duration.ofNanos(52_763_797_000L)),
                Arguments.of("0.3333333333333333333h", Duration.ofNanos(1_200_000_000_000L)),
                Arguments.of("9007199254740993ns", Duration.ofNanos(9_007_199_254_740_993L)),
                Arguments.of("9223372036854775807ns", Duration.ofNanos(Long.MAX_VALUE)),
                Arguments.of("-9223372036854775808ns", Duration.ofNanos(Long.MIN_VALUE)),
                Arguments.of("0.100000000000000000000h", Duration.ofMinutes(6)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durations")
    void readsWhatGoReads(String text, Duration expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(expected);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("", "it is empty"),
                Arguments.of("3", "a unit is missing"),
                Arguments.of("-", "it is empty"),
                Arguments.of("s", "a number is expected at position 0"),
                Arguments.of(".", "a number is expected at position 0"),
                Arguments.of("-.", "a number is expected at position 1"),
                Arguments.of(".s", "a number is expected at position 0"),
                Arguments.of("+.s", "a number is expected at position 1"),
                Arguments.of("1d", "unknown unit 'd'"),
                Arguments.of("1.2.3s", "a unit is missing"),
                Arguments.of(" 5s", "a number is expected at position 0"),
                Arguments.of("9223372036854775808ns", "it is out of range"),
                Arguments.of("3000000h", "it is out of range"));
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @MethodSource("invalid")
    void refusesWhatGoRefusesSayingWhy(String text, String why) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + text + "' is not a duration")
                .hasMessageContaining(why);
    }

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of(Duration.ZERO, "0s"),
                Arguments.of(Duration.ofNanos(1), "1ns"),
                Arguments.of(Duration.ofNanos(1100), "1.1µs"),
                Arguments.of(Duration.ofNanos(2_200_000), "2.2ms"),
                Arguments.of(Duration.ofMillis(300), "300ms"),
                Arguments.of(Duration.ofMillis(3300), "3.3s"),
                Arguments.of(Duration.ofSeconds(240), "4m0s"),
                Arguments.of(Duration.ofSeconds(4 * 60 + 5), "4m5s"),
                Arguments.of(Duration.ofMillis(4 * 60_000 + 5001), "4m5.001s"),
                Arguments.of(Duration.ofSeconds(5 * 3600 + 6 * 60 + 7).plusMillis(1), "5h6m7.001s"),
                Arguments.of(Duration.ofMinutes(8 * 60).plusNanos(1), "8h0m0.000000001s"),
                Arguments.of(Duration.ofSeconds(-2), "-2s"),
                Arguments.of(Duration.ofNanos(Long.MAX_VALUE), "2562047h47m16.854775807s"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("formats")
    void writesWhatGoWrites(Duration duration, String expected) {
        assertThat(GoDuration.format(duration)).isEqualTo(expected);
        assertThat(GoDuration.parse(expected)).isEqualTo(duration);
    }
}
