package dev.muster.engine.framework;

/**
 * Orders victims of different jobs before the queue and job rules of {@link VictimOrder} apply: a
 * plugin that knows which running tasks lose least when evicted says so here. First non-zero answer
 * wins; without one, {@link VictimOrder}'s rules decide.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface VictimTaskOrder {
    /** Negative when {@code left} should be evicted before {@code right} for {@code preemptor}. */
    int compareVictimTasks(TaskState left, TaskState right, TaskState preemptor);
}
