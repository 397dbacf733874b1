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
                Arguments.of("100k", "100000"));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @MethodSource("quantities")
    void parsesKubernetesQuantities(String text, String expected) {
        assertThat(Quantities.parse(text)).isEqualByComparingTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "rejects ''{0}''")
    @ValueSource(strings = {"", "lots", "2 Gi", "1.2.3", "5Gb"})
    void rejectsWhatIsNotAQuantity(String text) {
        assertThatThrownBy(() -> Quantities.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "' is not a Kubernetes quantity");
    }
}
