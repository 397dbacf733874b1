package dev.muster.peers;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/** Ends a process and everything it started, politely first, then by force. */
final class ProcessTrees {
    private ProcessTrees() {}

    /**
     * Sends SIGTERM to the process and its descendants, waits up to {@code grace} for them to exit,
     * then SIGKILLs what is left and waits for that too. Returns the processes still alive after it
     * all (empty unless the kernel refused to kill).
     */
    static List<ProcessHandle> destroy(ProcessHandle root, Duration grace) {
        requireNonNull(root, "root is null");
        requireNonNull(grace, "grace is null");
        // listed before the root goes, as its children are re-parented when it exits
        List<ProcessHandle> tree = Stream.concat(Stream.of(root), root.descendants()).toList();
        tree.forEach(ProcessHandle::destroy);
        awaitExit(tree, grace);
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        awaitExit(tree, Duration.ofSeconds(10));
        return tree.stream().filter(ProcessHandle::isAlive).collect(ImmutableList.toImmutableList());
    }

    private static void awaitExit(List<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle process : processes) {
            long remaining = Math.max(0, deadline - System.nanoTime());
            try {
                process.onExit().get(remaining, TimeUnit.NANOSECONDS);
            }
            catch (TimeoutException e) {
                // still alive: the caller escalates or reports it
                return;
            }
            catch (ExecutionException e) {
                throw new IllegalStateException("BUG: onExit failed for process " + process.pid(), e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
