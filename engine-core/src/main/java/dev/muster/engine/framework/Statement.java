package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NodeName;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction over a session: evictions, pipelines and allocations are applied to the session at
 * once (so later decisions see them), and {@link #commit} makes them decisions while {@link #discard}
 * undoes them in reverse order. This is how a gang is placed all or nothing. Not thread-safe.
 */
public final class Statement {
    private enum Kind {
        EVICT,
        PIPELINE,
        ALLOCATE
    }

    /** {@code action} and {@code reason} say who evicts and why; empty for a pipeline or an allocation. */
    private record Operation(Kind kind, TaskState task, NodeName node, String action, String reason) {}

    /**
     * The operations of statements as they were, kept after the statements are discarded so the best of
     * several dry runs can be applied again with {@link #replay} (Volcano's {@code SaveOperations}).
     */
    public static final class Saved {
        private final List<Operation> operations;

        private Saved(List<Operation> operations) {
            this.operations = List.copyOf(operations);
        }

        public boolean isEmpty() {
            return operations.isEmpty();
        }
    }

    private final Session session;
    private final List<Operation> operations = new ArrayList<>();

    Statement(Session session) {
        this.session = requireNonNull(session, "session is null");
    }

    /**
     * Marks a running task for eviction: its resources become releasing on its node.
     *
     * @param action the name of the action that evicts, as configured (its {@link Action#name()})
     */
    public void evict(TaskState task, String action, String reason) {
        requireNonNull(action, "action is null");
        requireNonNull(reason, "reason is null");
        NodeName node = task.node().orElseThrow(() -> new IllegalStateException("BUG: evicting task " + task.id() + " without a node"));
        session.evictInSession(task);
        operations.add(new Operation(Kind.EVICT, task, node, action, reason));
    }

    /** Reserves a node's future idle for a task that waits for releasing resources. */
    public void pipeline(TaskState task, NodeName node) {
        session.pipelineInSession(task, node);
        operations.add(new Operation(Kind.PIPELINE, task, node, "", ""));
    }

    /** Places a task on a node's idle resources; bound when the statement commits. */
    public void allocate(TaskState task, NodeName node) {
        session.allocateInSession(task, node);
        operations.add(new Operation(Kind.ALLOCATE, task, node, "", ""));
    }

    public boolean isEmpty() {
        return operations.isEmpty();
    }

    public boolean hasEvictions() {
        return operations.stream().anyMatch(operation -> operation.kind() == Kind.EVICT);
    }

    /** How many allocations and pipelines the statement holds. */
    public int placedCount() {
        return (int) operations.stream().filter(operation -> operation.kind() != Kind.EVICT).count();
    }

    /** The operations of these statements, in order, to replay after they are discarded. */
    public static Saved save(List<Statement> statements) {
        List<Operation> all = new ArrayList<>();
        statements.forEach(statement -> all.addAll(statement.operations));
        return new Saved(all);
    }

    /** Applies saved operations again, in their order (Volcano's {@code RecoverOperations}). */
    public void replay(Saved saved) {
        for (Operation operation : saved.operations) {
            switch (operation.kind()) {
                case EVICT -> evict(operation.task(), operation.action(), operation.reason());
                case PIPELINE -> pipeline(operation.task(), operation.node());
                case ALLOCATE -> allocate(operation.task(), operation.node());
            }
        }
    }

    /** Moves another statement's operations into this one; the other is left empty. */
    public void merge(Statement other) {
        operations.addAll(other.operations);
        other.operations.clear();
    }

    /** Turns the operations into decisions: evictions and binds. Pipelined tasks keep their reservation. */
    public void commit() {
        for (Operation operation : operations) {
            switch (operation.kind()) {
                case EVICT -> session.recordEviction(operation.task(), operation.action(), operation.reason());
                case PIPELINE -> {
                    // a reservation only: nothing is written until the task is allocated in a later session
                }
                case ALLOCATE -> session.recordBind(operation.task());
            }
        }
        operations.clear();
    }

    /** Undoes every operation, newest first. */
    public void discard() {
        for (int i = operations.size() - 1; i >= 0; i--) {
            Operation operation = operations.get(i);
            switch (operation.kind()) {
                case EVICT -> session.unevictInSession(operation.task());
                case PIPELINE, ALLOCATE -> session.unplaceInSession(operation.task());
            }
        }
        operations.clear();
    }
}
