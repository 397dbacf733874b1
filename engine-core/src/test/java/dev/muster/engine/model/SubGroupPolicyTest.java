package dev.muster.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SubGroupPolicyTest {
    private static SubGroupPolicy policy(boolean hasSelector, Map<String, String> matchLabels, List<String> keys) {
        return new SubGroupPolicy("workers", Optional.empty(), 0, hasSelector, ImmutableMap.copyOf(matchLabels),
                ImmutableList.of(new LabelRequirement("env", "NotIn", ImmutableList.of("test"))), ImmutableList.copyOf(keys),
                Optional.empty());
    }

    static Stream<Arguments> pods() {
        return Stream.of(
                Arguments.of("the match label values name the subgroup", policy(false, Map.of(), List.of("role", "rank")),
                        Map.of("role", "worker", "rank", "3"), List.of("worker", "3")),
                Arguments.of("a missing match label leaves the pod to the default subgroup", policy(false, Map.of(), List.of("role", "rank")),
                        Map.of("role", "worker"), List.of()),
                Arguments.of("a blank match label leaves the pod to the default subgroup", policy(false, Map.of(), List.of("role")),
                        Map.of("role", ""), List.of()),
                Arguments.of("no match label keys: the default subgroup", policy(false, Map.of(), List.of()),
                        Map.of("role", "worker"), List.of()),
                Arguments.of("the selector's match labels must hold", policy(true, Map.of("app", "train"), List.of("role")),
                        Map.of("app", "serve", "role", "worker"), List.of()),
                Arguments.of("the selector's expressions must hold", policy(true, Map.of(), List.of("role")),
                        Map.of("env", "test", "role", "worker"), List.of()),
                Arguments.of("a selected pod is matched", policy(true, Map.of("app", "train"), List.of("role")),
                        Map.of("app", "train", "role", "worker"), List.of("worker")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pods")
    void matchValuesOfAPod(String name, SubGroupPolicy policy, Map<String, String> labels, List<String> expected) {
        assertThat(policy.matchValues(labels)).isEqualTo(expected);
    }
}
