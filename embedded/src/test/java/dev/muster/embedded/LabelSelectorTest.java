package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Label selectors select as kube-apiserver's {@code labels.Parse} and {@code Requirement.Matches} do. */
class LabelSelectorTest {
    private static final Map<String, String> X = Map.of("app", "x", "tier", "web", "rank", "5");
    private static final Map<String, String> Y = Map.of("app", "y");
    private static final Map<String, String> NONE = Map.of();

    static Stream<Arguments> selections() {
        return Stream.of(
                Arguments.of("in selects only the listed values", "app in (x)", true, false, false),
                Arguments.of("in with several values", "app in (x, y)", true, true, false),
                Arguments.of("notin selects other values and objects without the label", "app notin (x)", false, true, true),
                Arguments.of("a bare key needs the label", "app", true, true, false),
                Arguments.of("!key needs the label absent", "!app", false, false, true),
                Arguments.of("!= selects objects without the label too", "app!=x", false, true, true),
                Arguments.of("= and == are the same", "app==x", true, false, false),
                Arguments.of("every requirement must hold", "app=x,tier=web", true, false, false),
                Arguments.of("> compares integers", "rank>4", true, false, false),
                Arguments.of("< needs the label", "rank<9", true, false, false),
                Arguments.of("in and notin are values after an operator", "app in (in, notin)", false, false, false),
                Arguments.of("the empty selector selects everything", "", true, true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void selects(String description, String selector, boolean selectsX, boolean selectsY, boolean selectsUnlabelled) {
        LabelSelector parsed = LabelSelector.parse(selector);

        assertThat(parsed.matches(X)).as("labels %s", X).isEqualTo(selectsX);
        assertThat(parsed.matches(Y)).as("labels %s", Y).isEqualTo(selectsY);
        assertThat(parsed.matches(NONE)).as("no labels").isEqualTo(selectsUnlabelled);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void selectsStoredObjectsAsTheirLabels(String description, String selector, boolean selectsX, boolean selectsY,
            boolean selectsUnlabelled) {
        Selection selection = new Selection(LabelSelector.parse(selector), FieldSelector.EVERYTHING);

        assertThat(selection.matches(stored(X))).isEqualTo(selectsX);
        assertThat(selection.matches(stored(Y))).isEqualTo(selectsY);
        assertThat(selection.matches(stored(NONE))).isEqualTo(selectsUnlabelled);
    }

    private static String stored(Map<String, String> labels) {
        StringBuilder json = new StringBuilder("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{");
        labels.forEach((key, value) -> json.append(json.charAt(json.length() - 1) == '{' ? "" : ",")
                .append('"').append(key).append("\":\"").append(value).append('"'));
        return json.append("}},\"spec\":{}}").toString();
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("an unclosed set", "app in (x", "unable to parse requirement: found '', expected: ',' or ')'"),
                Arguments.of("no key", "=x", "found '=', expected: !, identifier, or 'end of string'"),
                Arguments.of("no operator", "app x", "unable to parse requirement: found 'x', expected: in, notin, =, ==, !=, gt, lt"),
                Arguments.of("a set without parentheses", "app in x", "unable to parse requirement: found 'x' expected: '('"),
                Arguments.of("a trailing comma", "app=x,", "found '', expected: identifier after ','"),
                Arguments.of("a comparison with no integer", "rank>high",
                        "unable to parse requirement: values[0]: Invalid value: \"high\": for 'Gt', 'Lt' operators, the value must be an integer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void refuses(String description, String selector, String message) {
        assertThatThrownBy(() -> LabelSelector.parse(selector)).isInstanceOf(BadSelectorException.class).hasMessage(message);
    }
}
