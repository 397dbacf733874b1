package dev.muster.graph;

import com.google.common.collect.ImmutableList;
import java.util.Arrays;

/** Short node ids for tests: {@code id("a")}, {@code ids("a", "b")}. */
final class Nodes {
    private Nodes() {}

    static NodeId id(String value) {
        return NodeId.of(value);
    }

    static ImmutableList<NodeId> ids(String... values) {
        return Arrays.stream(values).map(NodeId::of).collect(ImmutableList.toImmutableList());
    }
}
