package dev.muster.engine.config;

import com.google.common.collect.ImmutableList;
import java.util.List;

/** A scheduler configuration that cannot be used, with every problem found in it. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final ImmutableList<ConfigProblem> problems;

    public ConfigException(String source, List<ConfigProblem> problems) {
        super(describe(source, problems));
        this.source = source;
        this.problems = ImmutableList.copyOf(problems);
    }

    public String source() {
        return source;
    }

    public ImmutableList<ConfigProblem> problems() {
        return problems;
    }

    private static String describe(String source, List<ConfigProblem> problems) {
        StringBuilder text = new StringBuilder();
        text.append(source).append(": ").append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
        for (ConfigProblem problem : problems) {
            text.append(System.lineSeparator()).append("  ").append(problem);
        }
        return text.toString();
    }
}
