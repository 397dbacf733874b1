package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Argo's {@code depends} grammar and semantics ({@code docs/enhanced-depends-logic.md} at v4.0.5). */
class DependsParserTest {
    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of("a bare task name", "A", "A"),
                Arguments.of("the diamond's join", "B && C", "(B && C)"),
                Arguments.of("a result in parentheses", "A && (C.Succeeded || C.Failed)", "(A && (C.Succeeded || C.Failed))"),
                Arguments.of("&& binds tighter than ||", "a || b && c", "(a || (b && c))"),
                Arguments.of("! binds tighter than &&", "!A.Failed && B", "(!A.Failed && B)"),
                Arguments.of("names with dashes and digits", "task-1.AnySucceeded || task-2.AllFailed", "(task-1.AnySucceeded || task-2.AllFailed)"),
                Arguments.of("the docs' example", "(task-2.Succeeded || task-2.Skipped) && !task-3.Failed",
                        "((task-2.Succeeded || task-2.Skipped) && !task-3.Failed)"),
                Arguments.of("no spaces", "A.Errored||!(B&&C.Omitted)", "(A.Errored || !(B && C.Omitted))"),
                Arguments.of("a daemon", "  server.Daemoned  ", "server.Daemoned"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void parses(String description, String text, String structure) {
        assertThat(DependsParser.parse(text)).hasToString(structure);
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("a dangling &&", "B &&", "expected a task name, '!' or '(', found the end at column 5"),
                Arguments.of("an unknown result", "A.Failded", "task 'A': unknown result 'Failded' (known: Succeeded, Failed, Errored, "
                        + "Skipped, Omitted, Daemoned, AnySucceeded, AllFailed) at column 3"),
                Arguments.of("an unclosed parenthesis", "(A || B", "expected ')' to close the '(' at column 1, found the end at column 8"),
                Arguments.of("two names without an operator", "A B", "expected '&&' or '||', found 'B' at column 3"),
                Arguments.of("a single &", "A & B", "expected '&&' or '||', found '&' at column 3"),
                Arguments.of("a closing parenthesis too many", "A)", "')' without '(', found ')' at column 2"),
                Arguments.of("an empty group", "()", "expected a task name, '!' or '(', found ')' at column 2"),
                Arguments.of("a name starting with a dash", "-A", "expected a task name, '!' or '(', found '-' at column 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void refusesWithWhatWhereAndWhatWasFound(String description, String text, String message) {
        assertThatThrownBy(() -> DependsParser.parse(text)).isInstanceOf(DependsParser.SyntaxException.class).hasMessage(message);
    }

    @Test
    void aBareNameHoldsWhenTheTaskSucceededWasSkippedOrIsADaemonAsInArgo() {
        DependsExpression bare = DependsParser.parse("A");

        assertThat(EnumSet.allOf(TaskResult.class)).filteredOn(result -> bare.evaluate((task, has) -> has == result))
                .containsExactlyInAnyOrder(TaskResult.SUCCEEDED, TaskResult.SKIPPED, TaskResult.DAEMONED);
    }

    @Test
    void argosEnhancedDependsExampleRunsTheTasksItSaysItRuns() {
        // given: dag-enhanced-depends: A and B pass, C fails, should-not-execute is then omitted
        Map<String, TaskResult> results = Map.of("A", TaskResult.SUCCEEDED, "B", TaskResult.SUCCEEDED, "C", TaskResult.FAILED,
                "should-execute-2", TaskResult.SUCCEEDED, "should-not-execute", TaskResult.OMITTED);

        // then: each task's depends, as the example writes it, holds exactly when its name says it runs
        for (String task : new String[] {"should-execute-1", "should-execute-2", "should-not-execute", "should-execute-3"}) {
            DependsExpression expression = DependsParser.parse(TestingExamples.depends("dag-enhanced-depends", "diamond", task));
            assertThat(expression.evaluate((name, result) -> results.get(name) == result)).as(task).isEqualTo(!task.equals("should-not-execute"));
        }
    }

    @Test
    void aTaskNamedUnderNotIsWantedInEveryOtherResult() {
        DependsExpression expression = DependsParser.parse("B && !A.Failed");

        assertThat(expression.tasks()).containsExactly("B", "A");
        assertThat(expression.resultsWanted("A")).isEqualTo(EnumSet.complementOf(EnumSet.of(TaskResult.FAILED)));
        assertThat(expression.resultsWanted("B")).containsExactlyInAnyOrderElementsOf(DependsExpression.BARE);
        assertThat(expression.resultsWanted("C")).isEmpty();
    }
}
