package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * A DAG task's {@code depends}, parsed by {@link DependsParser}: task results joined by {@code &&},
 * {@code ||} and {@code !}. A task named without a result means, as in Argo, {@code (A.Succeeded ||
 * A.Skipped || A.Daemoned)}; {@code dependencies: [A, B]} is {@code A && B}.
 */
public sealed interface DependsExpression
        permits DependsExpression.Result, DependsExpression.And, DependsExpression.Or, DependsExpression.Not {
    /** The results a bare task name stands for. */
    ImmutableSet<TaskResult> BARE = ImmutableSet.of(TaskResult.SUCCEEDED, TaskResult.SKIPPED, TaskResult.DAEMONED);

    /**
     * Whether the expression holds when {@code has} says which results the tasks have: Argo's own
     * evaluation, for tests and for reading a run.
     */
    boolean evaluate(BiPredicate<String, TaskResult> has);

    /** The tasks named, in the order they first appear. */
    default ImmutableSet<String> tasks() {
        ImmutableSet.Builder<String> tasks = ImmutableSet.builder();
        collectTasks(this, tasks);
        return tasks.build();
    }

    /**
     * The results of {@code task} that can make the expression hold: those named in a positive place,
     * and every other result for a task named under {@code !}. Empty when the task is not named.
     */
    default Set<TaskResult> resultsWanted(String task) {
        Set<TaskResult> wanted = EnumSet.noneOf(TaskResult.class);
        collectWanted(this, task, false, wanted);
        return wanted;
    }

    private static void collectTasks(DependsExpression expression, ImmutableSet.Builder<String> tasks) {
        if (expression instanceof Result result) {
            tasks.add(result.task());
        } else if (expression instanceof And and) {
            collectTasks(and.left(), tasks);
            collectTasks(and.right(), tasks);
        } else if (expression instanceof Or or) {
            collectTasks(or.left(), tasks);
            collectTasks(or.right(), tasks);
        } else if (expression instanceof Not not) {
            collectTasks(not.operand(), tasks);
        }
    }

    private static void collectWanted(DependsExpression expression, String task, boolean negated, Set<TaskResult> wanted) {
        if (expression instanceof Result result) {
            if (result.task().equals(task)) {
                Set<TaskResult> named = result.results();
                if (negated) {
                    EnumSet.allOf(TaskResult.class).stream().filter(each -> !named.contains(each)).forEach(wanted::add);
                } else {
                    wanted.addAll(named);
                }
            }
        } else if (expression instanceof And and) {
            collectWanted(and.left(), task, negated, wanted);
            collectWanted(and.right(), task, negated, wanted);
        } else if (expression instanceof Or or) {
            collectWanted(or.left(), task, negated, wanted);
            collectWanted(or.right(), task, negated, wanted);
        } else if (expression instanceof Not not) {
            collectWanted(not.operand(), task, !negated, wanted);
        }
    }

    /**
     * {@code A.Succeeded}, or {@code A} alone.
     *
     * @param result empty for a bare task name
     */
    record Result(String task, Optional<TaskResult> result) implements DependsExpression {
        public Result {
            requireNonNull(task, "task is null");
            requireNonNull(result, "result is null");
        }

        /** The results this operand accepts: the one named, or {@link #BARE}. */
        public Set<TaskResult> results() {
            return result.<Set<TaskResult>>map(ImmutableSet::of).orElse(BARE);
        }

        @Override
        public boolean evaluate(BiPredicate<String, TaskResult> has) {
            return results().stream().anyMatch(each -> has.test(task, each));
        }

        @Override
        public String toString() {
            return result.map(each -> task + "." + each.argoName()).orElse(task);
        }
    }

    record And(DependsExpression left, DependsExpression right) implements DependsExpression {
        public And {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }

        @Override
        public boolean evaluate(BiPredicate<String, TaskResult> has) {
            return left.evaluate(has) && right.evaluate(has);
        }

        @Override
        public String toString() {
            return "(" + left + " && " + right + ")";
        }
    }

    record Or(DependsExpression left, DependsExpression right) implements DependsExpression {
        public Or {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }

        @Override
        public boolean evaluate(BiPredicate<String, TaskResult> has) {
            return left.evaluate(has) || right.evaluate(has);
        }

        @Override
        public String toString() {
            return "(" + left + " || " + right + ")";
        }
    }

    record Not(DependsExpression operand) implements DependsExpression {
        public Not {
            requireNonNull(operand, "operand is null");
        }

        @Override
        public boolean evaluate(BiPredicate<String, TaskResult> has) {
            return !operand.evaluate(has);
        }

        @Override
        public String toString() {
            return "!" + operand;
        }
    }
}
