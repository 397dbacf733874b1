package dev.muster.engine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {
    static Stream<Arguments> quantities() {
        return Stream.of(
                Arguments.of("500m", "0.5"),
                Arguments.of("2", "2"),
                Arguments.of("1.5", "1.5"),
                Arguments.of("2Gi", "2147483648"),
                Arguments.of("4G", "4000000000"),
                Arguments.of("128Mi", "134217728"),
                Arguments.of("1e3", "1000"),
                Arguments.of("100k", "100000"),
                Arguments.of(".5", "0.5"),
                Arguments.of("5.", "5"),
                Arguments.of("+2", "2"),
                Arguments.of("1E", "1000000000000000000"),
                Arguments.of("1E3", "1000"),
                Arguments.of("12e-3", "0.012"),
                Arguments.of("1n", "0.000000001"),
                Arguments.of("0.0000000001", "0.000000001"),
                Arguments.of("1e2000000000", "9223372036854775807"),
                Arguments.of("1e-2000000000", "0.000000001"),
                Arguments.of("99999999999999999999999Ei", "9223372036854775807"));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @MethodSource("quantities")
    void parsesKubernetesQuantities(String text, String expected) {
        assertThat(Quantities.parse(text)).isEqualByComparingTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "rejects ''{0}''")
    @ValueSource(strings = {"", "lots", "2 Gi", "1.2.3", "5Gb", " 1", "1 ", ".inf", "-.inf", ".nan", "NaN", "Infinity", "1e", "1e+",
        "1e3.5", ".", "+", "1Ki3", "1e99999999999", "0x10", "1_000"})
    void rejectsWhatIsNotAQuantity(String text) {
        assertThatThrownBy(() -> Quantities.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "' is not a Kubernetes quantity");
    }

    static Stream<Arguments> milliQuantities() {
        return Stream.of(
                Arguments.of(2000.0, "2"),
                Arguments.of(1500.0, "1500m"),
                Arguments.of(0.0, "0"),
                Arguments.of(-500.0, "-500m"),
                Arguments.of(-3000.0, "-3"),
                Arguments.of(0.4, "0m"));
    }

    @ParameterizedTest(name = "{0} milli is {1}")
    @MethodSource("milliQuantities")
    void formatsMilliAsWholeUnitsWhenExact(double milli, String expected) {
        assertThat(Quantities.formatMilli(milli)).isEqualTo(expected);
    }

    static Stream<Arguments> byteQuantities() {
        return Stream.of(
                Arguments.of(2147483648.0, "2Gi"),
                Arguments.of(4e9, "4G"),
                Arguments.of(1610612736.0, "1536Mi"),
                Arguments.of(1000.0, "1k"),
                Arguments.of(123.0, "123"),
                Arguments.of(1.5, "2"),
                Arguments.of(214404767416.32, "214404767416"));
    }

    @ParameterizedTest(name = "{0} bytes is {1}")
    @MethodSource("byteQuantities")
    void formatsBytesInTheShortestExactUnit(double bytes, String expected) {
        assertThat(Quantities.formatBytes(bytes)).isEqualTo(expected);
    }
}
