package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import java.util.List;

/** A graph that cannot be built; {@link #problems()} lists every problem, not only the first. */
public final class GraphException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ImmutableList<GraphProblem> problems;

    public GraphException(List<GraphProblem> problems) {
        super(message(problems));
        this.problems = ImmutableList.copyOf(problems);
        checkArgument(!this.problems.isEmpty(), "no problems");
    }

    public ImmutableList<GraphProblem> problems() {
        return problems;
    }

    private static String message(List<GraphProblem> problems) {
        if (problems.size() == 1) {
            return "invalid job graph: " + problems.get(0).message();
        }
        StringBuilder message = new StringBuilder("invalid job graph: ").append(problems.size()).append(" problems");
        for (GraphProblem problem : problems) {
            message.append("\n  ").append(problem.message());
        }
        return message.toString();
    }
}
