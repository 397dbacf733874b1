package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.ThreadFactory;

/**
 * Daemon threads for the runtime's executors (a controller term's workers and timers, the scheduling loop,
 * the leader election), so an executor that was not shut down never keeps the JVM alive.
 */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** Names its threads {@code prefix-0}, {@code prefix-1}, ... */
    public static ThreadFactory named(String prefix) {
        return new ThreadFactoryBuilder().setNameFormat(prefix + "-%d").setDaemon(true).build();
    }

    /** For an executor of one thread at a time: names each thread {@code name}, which may hold no {@code %}. */
    public static ThreadFactory single(String name) {
        checkArgument(name.indexOf('%') < 0, "a thread name holds no %%: %s", name);
        return new ThreadFactoryBuilder().setNameFormat(name).setDaemon(true).build();
    }
}
